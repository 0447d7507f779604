import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Industry } from '../industries/industry.entity';

@Entity({ name: 'startups' })
@Index('idx_startups_sort_name', ['sortName', 'id'])
@Index('idx_startups_industry_sort_name', ['industryId', 'sortName', 'id'])
export class Startup {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /**
   * `foldName(name)`: the key lists are ordered by and `q` is looked for in (see common/text/name-folding.ts).
   * Byte order on both engines (`COLLATE "C"` on PostgreSQL), so both give the same order and matches.
   */
  @Column({ name: 'sort_name', type: 'varchar', length: 200 })
  sortName: string;

  @Column({ type: 'varchar', length: 220, unique: true })
  slug: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  website: string | null;

  @Index('idx_startups_founded_year')
  @Column({ name: 'founded_year', type: 'integer' })
  foundedYear: number;

  @Column({ type: 'varchar', length: 100 })
  city: string;

  @Column({ name: 'industry_id', type: 'integer' })
  industryId: number;

  @ManyToOne(() => Industry, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'industry_id' })
  industry: Industry;
}
