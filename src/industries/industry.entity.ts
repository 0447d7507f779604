import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'industries' })
@Index('idx_industries_sort_name', ['sortName', 'id'])
export class Industry {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 100, unique: true })
  name: string;

  /** `foldName(name)`: the key the list is ordered by (see common/text/name-folding.ts). */
  @Column({ name: 'sort_name', type: 'varchar', length: 100 })
  sortName: string;
}
