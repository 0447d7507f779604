import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Industry } from '../industries/industry.entity';

@Entity({ name: 'startups' })
export class Startup {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('idx_startups_name')
  @Column({ type: 'varchar', length: 200 })
  name: string;

  /**
   * The name folded for case-insensitive search (see `foldForSearch`): the same bytes on SQLite and
   * PostgreSQL, so both engines give the same results whatever their collation.
   */
  @Column({ name: 'search_name', type: 'varchar', length: 200 })
  searchName: string;

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

  @Index('idx_startups_industry_id')
  @Column({ name: 'industry_id', type: 'integer' })
  industryId: number;

  @ManyToOne(() => Industry, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'industry_id' })
  industry: Industry;
}
