import { Injectable } from '@nestjs/common';
import { INDUSTRY_NAMES } from '../database/migrations/1763700000001-seed-industries';
import { Transactions, Tx } from '../database/transaction';
import { IndustriesRepository } from '../industries/industries.repository';
import { IndustriesService } from '../industries/industries.service';
import { generateDemoStartups } from './demo-startups';
import { SEED_BATCH_ROWS, StartupsRepository } from './startups.repository';

export const DEFAULT_DEMO_STARTUPS = 200;
export const MAX_DEMO_STARTUPS = 1_000_000;

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
 * already taken is skipped. Everything happens in one transaction (Transactions, like every other write
 * that must commit together), in batched multi-row inserts.
 */
@Injectable()
export class StartupsSeederService {
  constructor(
    private readonly transactions: Transactions,
    private readonly startups: StartupsRepository,
    private readonly industryRows: IndustriesRepository,
    private readonly industries: IndustriesService,
  ) {}

  async seed(options: { startups?: number } = {}): Promise<SeedResult> {
    const target = options.startups ?? DEFAULT_DEMO_STARTUPS;
    if (!Number.isSafeInteger(target) || target < 0 || target > MAX_DEMO_STARTUPS) {
      throw new RangeError(`The number of startups must be a whole number from 0 to ${MAX_DEMO_STARTUPS}`);
    }
    const result = await this.transactions.run(async (tx) => {
      const industriesAdded = await this.ensureIndustries(tx);
      const before = await this.startups.count(tx);
      if (before < target) {
        const industryIds = await this.industryRows.idsByName(tx);
        const missing = generateDemoStartups(target).slice(before);
        for (let start = 0; start < missing.length; start += SEED_BATCH_ROWS) {
          await this.startups.insertDemo(tx, missing.slice(start, start + SEED_BATCH_ROWS), industryIds);
        }
        await this.startups.optimizeSearchIndex(tx);
      }
      const after = before < target ? await this.startups.count(tx) : before;
      return { industriesAdded, startupsAdded: after - before, startupsTotal: after };
    });
    if (result.industriesAdded > 0) this.industries.invalidate();
    return result;
  }

  private async ensureIndustries(tx: Tx): Promise<number> {
    const present = await this.industryRows.idsByName(tx);
    const missing = INDUSTRY_NAMES.filter((name) => !present.has(name));
    if (missing.length === 0) return 0;
    await this.industryRows.insertMissing(tx, missing);
    return missing.length;
  }
}
