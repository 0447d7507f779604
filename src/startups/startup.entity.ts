import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BYTE_ORDER } from '../database/columns';
import { Industry } from '../industries/industry.entity';

/** Indexes and keys as migrations 1763700000000, 1763700000500 and 1763700000501 made them. */
@Entity({ name: 'startups' })
@Index('idx_startups_sort_name', ['sortName', 'id'])
@Index('idx_startups_industry_sort_name', ['industryId', 'sortName', 'id'])
@Index('idx_startups_founded_year', ['foundedYear', 'id'])
// PostgreSQL only: a GIN index with pg_trgm's operator class, which TypeORM cannot express (SQLite has the
// FTS5 table `startups_search` instead). Named here so that the schema builder leaves it alone.
@Index('idx_startups_sort_name_trgm', { synchronize: false })
export class Startup {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /**
   * `foldName(name)`: the key lists are ordered by and `q` is looked for in (see common/text/name-folding.ts).
   * Byte order on both engines (`COLLATE "C"` on PostgreSQL), so both give the same order and matches.
   */
  @Column({ name: 'sort_name', type: 'varchar', length: 200, collation: BYTE_ORDER })
  sortName: string;

  @Column({ type: 'varchar', length: 220, unique: true })
  slug: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  website: string | null;

  @Column({ name: 'founded_year', type: 'integer' })
  foundedYear: number;

  @Column({ type: 'varchar', length: 100 })
  city: string;

  @Column({ name: 'industry_id', type: 'integer' })
  @ForeignKey(() => Industry, { onDelete: 'RESTRICT' })
  industryId: number;
}
