import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { prefixRange } from '../common/text/name-folding';
import { param } from '../database/sql';
import { Tx } from '../database/transaction';
import { DemoStartup } from './demo-startups';
import { ListStartupsQueryDto, StartupSort } from './dto/list-startups.query.dto';
import { containsPattern, ftsPhrase, LIKE_ESCAPE, searchTerm } from './search-folding';

/**
 * Every order ends on the id, so equal keys never swap places between pages. Each one walks an index
 * forwards or backwards: `(sort_name, id)` (or `(industry_id, sort_name, id)` with `industryId`) and
 * `(founded_year, id)`.
 *
 * Names are ordered by their folded key (see common/text/name-folding.ts), byte by byte on both engines:
 * `Healthtech` before `HR Tech`, `Çorlu` beside `Corlu`.
 */
const ORDER_BY: Record<StartupSort, string> = {
  name: 's.sort_name ASC, s.id ASC',
  '-name': 's.sort_name DESC, s.id DESC',
  foundedYear: 's.founded_year ASC, s.id ASC',
  '-foundedYear': 's.founded_year DESC, s.id DESC',
};

/** Rows per demo-data INSERT: 8 columns × 1000 = 8000 parameters, far under both engines' limits. */
export const SEED_BATCH_ROWS = 1000;
const SEED_COLUMNS = ['name', 'sort_name', 'slug', 'description', 'website', 'founded_year', 'city', 'industry_id'];

const COLUMNS = 's.id, s.name, s.slug, s.description, s.website, s.founded_year, s.city, s.industry_id, i.name AS industry_name';

export interface StartupRow {
  id: number | string;
  name: string;
  slug: string;
  description: string;
  website: string | null;
  founded_year: number | string;
  city: string;
  industry_id: number | string;
  industry_name: string;
}

export interface Statement {
  text: string;
  values: unknown[];
}

/**
 * The two statements of a list request: the page and the exact count of what matches. Built apart from
 * the repository so the tests can ask each engine for the plan of exactly these statements.
 *
 * `q` (see search-folding.ts): a term of three characters or more is looked up in the trigram index
 * (`startups_search`, an FTS5 table kept in step with `startups` by triggers, on SQLite; the pg_trgm GIN
 * index on `sort_name` on PostgreSQL) and the few rows it names are then sorted; a shorter term is a
 * range of the sort key's B-tree.
 */
export function startupListSql(
  engine: 'sqlite' | 'postgres',
  query: Pick<ListStartupsQueryDto, 'industryId' | 'q' | 'sort' | 'limit' | 'offset'>,
): {
  page: Statement;
  count: Statement;
  /** Whether each row of the page carries `total`: then the count is needed only for an empty page. */
  pageHasTotal: boolean;
} {
  const conditions: string[] = [];
  const values: unknown[] = [];
  const next = (value: unknown) => {
    values.push(value);
    return engine === 'postgres' ? `$${values.length}` : '?';
  };

  if (query.industryId !== undefined) conditions.push(`s.industry_id = ${next(query.industryId)}`);
  const term = searchTerm(query.q);
  if (term?.kind === 'substring') {
    conditions.push(
      engine === 'postgres'
        ? `s.sort_name LIKE ${next(containsPattern(term.folded))} ESCAPE '${LIKE_ESCAPE}'`
        : `s.id IN (SELECT rowid FROM startups_search WHERE startups_search MATCH ${next(ftsPhrase(term.folded))})`,
    );
  } else if (term?.kind === 'prefix') {
    const range = prefixRange(term.folded);
    conditions.push(`s.sort_name >= ${next(range.low)}`);
    if (range.high !== undefined) conditions.push(`s.sort_name < ${next(range.high)}`);
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  // On SQLite a search alone is counted in the FTS5 index itself, which holds exactly one entry per
  // startup: no lookup of each match in the table. (A search's page carries its total; this count is
  // asked only when the page is empty.)
  const count =
    engine === 'sqlite' && term?.kind === 'substring' && query.industryId === undefined
      ? { text: 'SELECT COUNT(*) AS total FROM startups_search WHERE startups_search MATCH ?', values: [ftsPhrase(term.folded)] }
      : { text: `SELECT COUNT(*) AS total FROM startups s ${where}`, values: [...values] };

  const order = ORDER_BY[query.sort];
  const limit = next(query.limit);
  const offset = next(query.offset);
  if (term?.kind === 'substring') {
    // The matches are found once, in the trigram index, and kept with their sort keys: the page is sorted
    // from them and the total counted from them, in the same statement. (PostgreSQL estimates any
    // `LIKE '%…%'` at about 1% of the rows, however rare the term; left to itself, with a LIMIT, it would
    // walk the sort index testing every row until it has a page, which for a rare term is the whole table.
    // MATERIALIZED keeps the trigram index in charge: the cost follows the number of matches.)
    const page = {
      text:
        `WITH matches AS MATERIALIZED (SELECT s.id, s.sort_name, s.founded_year FROM startups s ${where}) ` +
        `SELECT ${COLUMNS}, (SELECT COUNT(*) FROM matches) AS total FROM startups s JOIN industries i ON i.id = s.industry_id ` +
        `WHERE s.id IN (SELECT m.id FROM matches m ORDER BY ${order.replace(/\bs\./g, 'm.')} LIMIT ${limit} OFFSET ${offset}) ORDER BY ${order}`,
      values,
    };
    return { page, count, pageHasTotal: true };
  }
  // The page's ids are found first, walking only an index that holds the sort columns and the id, and
  // just those rows are then read and joined: an offset deep in the list skips index entries, not whole
  // rows with their industry.
  const page = {
    text:
      `SELECT ${COLUMNS} FROM startups s JOIN industries i ON i.id = s.industry_id WHERE s.id IN (` +
      `SELECT s.id FROM startups s ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}) ORDER BY ${order}`,
    values,
  };
  return { page, count, pageHasTotal: false };
}

/**
 * Startup reads: one query for the page (the industry joined in, no per-row lookups) and one count, or
 * for a search one query that carries its count; raw SQL in the dialect of the connection (the trigram
 * searches and index-only page walks above are what the ORM's builder cannot say).
 */
@Injectable()
export class StartupsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A page of the startups matching `query`, in its order, and how many match in all. */
  async page(query: Pick<ListStartupsQueryDto, 'industryId' | 'q' | 'sort' | 'limit' | 'offset'>): Promise<{ rows: StartupRow[]; total: number }> {
    const sql = startupListSql(this.dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite', query);
    const count = () => this.dataSource.query(sql.count.text, sql.count.values) as Promise<Array<{ total: number | string }>>;
    if (sql.pageHasTotal) {
      const rows: Array<StartupRow & { total: number | string }> = await this.dataSource.query(sql.page.text, sql.page.values);
      const total = rows.length > 0 ? rows[0].total : query.offset === 0 ? 0 : (await count())[0].total;
      return { rows, total: Number(total) };
    }
    const [rows, counted] = await Promise.all([this.dataSource.query(sql.page.text, sql.page.values) as Promise<StartupRow[]>, count()]);
    return { rows, total: Number(counted[0].total) };
  }

  /** One startup with its industry. */
  async findById(id: number): Promise<StartupRow | undefined> {
    const rows: StartupRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM startups s JOIN industries i ON i.id = s.industry_id WHERE s.id = ${param(this.dataSource, 1)}`,
      [id],
    );
    return rows[0];
  }

  /** How many startups there are, within the seeding transaction. */
  async count(tx: Tx): Promise<number> {
    const { rows } = await tx.run<{ total: number | string }>('SELECT COUNT(*) AS total FROM startups');
    return Number(rows[0].total);
  }

  /**
   * Inserts demo startups in one multi-row statement (up to SEED_BATCH_ROWS), skipping a slug already
   * taken; `industryIds` maps each industry's name to its id.
   */
  async insertDemo(tx: Tx, batch: DemoStartup[], industryIds: Map<string, number>): Promise<void> {
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const s of batch) {
      tuples.push(`(${SEED_COLUMNS.map((_, i) => tx.p(values.length + i + 1)).join(', ')})`);
      values.push(s.name, s.sortName, s.slug, s.description, s.website, s.foundedYear, s.city, industryIds.get(s.industry));
    }
    await tx.run(`INSERT INTO startups (${SEED_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT (slug) DO NOTHING`, values);
  }

  /**
   * SQLite's search index (FTS5) grows by one segment per inserted batch: merge them into one, as FTS5
   * would over later writes, so searches read one doclist per trigram instead of many (about 20% faster
   * on 100,000 startups; a fraction of a second once, after a bulk load). PostgreSQL has nothing to do.
   */
  async optimizeSearchIndex(tx: Tx): Promise<void> {
    if (this.dataSource.options.type !== 'postgres') await tx.run("INSERT INTO startups_search (startups_search) VALUES ('optimize')");
  }
}
