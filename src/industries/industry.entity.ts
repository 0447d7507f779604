import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'industries' })
export class Industry {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 100, unique: true })
  name: string;
}
