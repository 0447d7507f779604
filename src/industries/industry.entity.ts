import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BYTE_ORDER } from '../database/columns';

@Entity({ name: 'industries' })
@Index('idx_industries_sort_name', ['sortName', 'id'])
export class Industry {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 100, unique: true })
  name: string;

  /** `foldName(name)`: the key the list is ordered by (see common/text/name-folding.ts). */
  @Column({ name: 'sort_name', type: 'varchar', length: 100, collation: BYTE_ORDER })
  sortName: string;
}
