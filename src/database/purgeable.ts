/**
 * A table's own purge (docs/add-a-module.md, "The purge"): the repository that owns the table deletes
 * the rows that can no longer be used at `now` (epoch ms) and says how many. It is one idempotent
 * DELETE, so several instances purging at once is harmless. The owning module exports the repository;
 * TokenPurgeService (src/purge) calls it and reports the count.
 */
export interface Purgeable {
  purgeExpired(now: number): Promise<number>;
}
