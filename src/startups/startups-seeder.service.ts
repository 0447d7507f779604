import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { INDUSTRY_NAMES } from '../database/migrations/1763700000001-seed-industries';
import { params } from '../database/sql';
import { foldName } from '../common/text/name-folding';
import { IndustriesService } from '../industries/industries.service';
import { DemoStartup, generateDemoStartups } from './demo-startups';

export const DEFAULT_DEMO_STARTUPS = 200;
export const MAX_DEMO_STARTUPS = 1_000_000;

/** Rows per INSERT: 8 columns × 1000 = 8000 parameters, far under both engines' limits. */
const BATCH_ROWS = 1000;
const COLUMNS = ['name', 'sort_name', 'slug', 'description', 'website', 'founded_year', 'city', 'industry_id'];

export interface SeedResult {
  /** The demo industries that were missing and were added. */
  industriesAdded: number;
  /** Startups added by this run. */
  startupsAdded: number;
  /** Startups in the database afterwards. */
  startupsTotal: number;
}

/**
 * Fills the database with the deterministic demo data: the industries of the platform and the first N
 * startups of a fixed sequence (see demo-startups.ts).
 *
 * It tops up rather than duplicates: with M startups already present it adds entries M+1..N of the
 * sequence, so `seed --startups 200` after a start-up seed changes nothing and `seed --startups 100000`
 * adds the rest; the same N on an empty database always gives the same rows. A startup whose slug is
 * already taken is skipped. Everything happens in one transaction, in batched multi-row inserts.
 */
@Injectable()
export class StartupsSeederService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly industries: IndustriesService,
  ) {}

  async seed(options: { startups?: number } = {}): Promise<SeedResult> {
    const target = options.startups ?? DEFAULT_DEMO_STARTUPS;
    if (!Number.isSafeInteger(target) || target < 0 || target > MAX_DEMO_STARTUPS) {
      throw new RangeError(`The number of startups must be a whole number from 0 to ${MAX_DEMO_STARTUPS}`);
    }
    const result = await this.dataSource.transaction(async (manager) => {
      const industriesAdded = await this.ensureIndustries(manager);
      const before = await countStartups(manager);
      if (before < target) {
        const industryIds = await this.industryIds(manager);
        const missing = generateDemoStartups(target).slice(before);
        for (let start = 0; start < missing.length; start += BATCH_ROWS) {
          await this.insertBatch(manager, missing.slice(start, start + BATCH_ROWS), industryIds);
        }
        // SQLite's search index (FTS5) grew by one segment per batch: merge them into one, as FTS5 would
        // over later writes, so searches read one doclist per trigram instead of many (about 20% faster
        // on 100,000 startups; a fraction of a second once, after a bulk load).
        if (this.dataSource.options.type !== 'postgres') await manager.query("INSERT INTO startups_search (startups_search) VALUES ('optimize')");
      }
      const after = before < target ? await countStartups(manager) : before;
      return { industriesAdded, startupsAdded: after - before, startupsTotal: after };
    });
    if (result.industriesAdded > 0) this.industries.invalidate();
    return result;
  }

  private async ensureIndustries(manager: EntityManager): Promise<number> {
    const rows: Array<{ name: string }> = await manager.query('SELECT name FROM industries');
    const present = new Set(rows.map((row) => row.name));
    const missing = INDUSTRY_NAMES.filter((name) => !present.has(name));
    if (missing.length === 0) return 0;
    const values = missing.map((_, i) => `(${params(this.dataSource, 2, 2 * i + 1)})`).join(', ');
    await manager.query(
      `INSERT INTO industries (name, sort_name) VALUES ${values} ON CONFLICT (name) DO NOTHING`,
      missing.flatMap((name) => [name, foldName(name)]),
    );
    return missing.length;
  }

  private async industryIds(manager: EntityManager): Promise<Map<string, number>> {
    const rows: Array<{ id: number | string; name: string }> = await manager.query('SELECT id, name FROM industries');
    return new Map(rows.map((row) => [row.name, Number(row.id)]));
  }

  private async insertBatch(manager: EntityManager, batch: DemoStartup[], industryIds: Map<string, number>): Promise<void> {
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const s of batch) {
      tuples.push(`(${params(this.dataSource, COLUMNS.length, values.length + 1)})`);
      values.push(s.name, s.sortName, s.slug, s.description, s.website, s.foundedYear, s.city, industryIds.get(s.industry));
    }
    await manager.query(`INSERT INTO startups (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT (slug) DO NOTHING`, values);
  }
}

async function countStartups(manager: EntityManager): Promise<number> {
  const rows: Array<{ total: number | string }> = await manager.query('SELECT COUNT(*) AS total FROM startups');
  return Number(rows[0].total);
}
