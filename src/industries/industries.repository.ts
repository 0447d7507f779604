import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { foldName } from '../common/text/name-folding';
import { params } from '../database/sql';
import { IndustryDto } from './dto/industry.dto';

/** The industries (`industries`), read whole: a couple of dozen rows, cached by IndustriesService. */
@Injectable()
export class IndustriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Every industry, ordered by its folded name (ties by id). */
  async allByName(): Promise<IndustryDto[]> {
    const rows: Array<{ id: number | string; name: string }> = await this.dataSource.query('SELECT id, name FROM industries ORDER BY sort_name, id');
    return rows.map((row) => ({ id: Number(row.id), name: row.name }));
  }

  /** The industries' names and ids, within the seeding transaction. */
  async idsByName(manager: EntityManager): Promise<Map<string, number>> {
    const rows: Array<{ id: number | string; name: string }> = await manager.query('SELECT id, name FROM industries');
    return new Map(rows.map((row) => [row.name, Number(row.id)]));
  }

  /** Adds the industries of these names (with their folded sort key), skipping a name already there. */
  async insertMissing(manager: EntityManager, names: string[]): Promise<void> {
    const values = names.map((_, i) => `(${params(this.dataSource, 2, 2 * i + 1)})`).join(', ');
    await manager.query(
      `INSERT INTO industries (name, sort_name) VALUES ${values} ON CONFLICT (name) DO NOTHING`,
      names.flatMap((name) => [name, foldName(name)]),
    );
  }
}
