import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Greek word-final sigma in the sort keys (common/text/name-folding.ts): lowercasing turns a capital
 * Σ at the end of a word into ς and anywhere else into σ, so "ΟΔΟΣ" was kept as "οδος" while a search
 * for "ΟΔΟΣΗ" or "οδοσ" folded to σ and missed it. Names now fold ς to σ; the keys written before are
 * refolded the same way here. On SQLite the startups' trigram index follows by its update trigger.
 *
 * Not undone: which σ of a key was a ς cannot be told afterwards, and σ is what the folding writes now.
 */
export class FinalSigma1790000003801 implements MigrationInterface {
  name = 'FinalSigma1790000003801';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['industries', 'startups']) {
      await q.query(`UPDATE ${table} SET sort_name = REPLACE(sort_name, 'ς', 'σ') WHERE sort_name LIKE '%ς%'`);
    }
  }

  async down(): Promise<void> {
    // Nothing to undo: see above.
  }
}
