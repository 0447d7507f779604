import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PostgreSQL estimates how many names match `LIKE '%term%'` by trying the pattern on the sampled values of
 * `sort_name` (its histogram). With the default sample (100 buckets) a term that matches 0.5 % of the names
 * can be estimated at 2 % or more, and the planner then prefers reading the whole table to the trigram
 * index, from one ANALYZE to the next. A larger sample makes the estimate close to the truth and the
 * choice stable. SQLite has no planner statistics of this kind: nothing to do there.
 */
export class StartupsSortNameStatistics1763700000502 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    if (q.connection.options.type === 'postgres') {
      await q.query('ALTER TABLE startups ALTER COLUMN sort_name SET STATISTICS 1000');
      await q.query('ANALYZE startups');
    }
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.options.type === 'postgres') {
      await q.query('ALTER TABLE startups ALTER COLUMN sort_name SET STATISTICS -1');
    }
  }
}
