import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { foldName } from '../common/text/name-folding';
import { Tx } from '../database/transaction';
import { IndustryDto } from './dto/industry.dto';

/**
 * The industries (`industries`), read whole: a couple of dozen rows, cached by IndustriesService. In SQL
 * throughout: the seeding statements run in the seeder's transaction (a `Tx`, src/database/transaction.ts)
 * and add the missing names with `ON CONFLICT (name) DO NOTHING`, so the one read is written alike.
 */
@Injectable()
export class IndustriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Every industry, ordered by its folded name (ties by id). */
  async allByName(): Promise<IndustryDto[]> {
    const rows: Array<{ id: number | string; name: string }> = await this.dataSource.query('SELECT id, name FROM industries ORDER BY sort_name, id');
    return rows.map((row) => ({ id: Number(row.id), name: row.name }));
  }

  /** The industries' names and ids, within the seeding transaction. */
  async idsByName(tx: Tx): Promise<Map<string, number>> {
    const { rows } = await tx.run<{ id: number | string; name: string }>('SELECT id, name FROM industries');
    return new Map(rows.map((row) => [row.name, Number(row.id)]));
  }

  /** Adds the industries of these names (with their folded sort key), skipping a name already there. */
  async insertMissing(tx: Tx, names: string[]): Promise<void> {
    const values = names.map((_, i) => `(${tx.p(2 * i + 1)}, ${tx.p(2 * i + 2)})`).join(', ');
    await tx.run(
      `INSERT INTO industries (name, sort_name) VALUES ${values} ON CONFLICT (name) DO NOTHING`,
      names.flatMap((name) => [name, foldName(name)]),
    );
  }
}
