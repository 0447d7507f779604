import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Paginated } from '../common/envelope/paginated';
import { AppError } from '../common/errors/app-error';
import { param } from '../database/sql';
import { ListStartupsQueryDto, StartupSort } from './dto/list-startups.query.dto';
import { StartupDto } from './dto/startup.dto';
import { containsPattern, LIKE_ESCAPE } from './search-folding';

/**
 * Every order ends on the id, so equal names or years never swap places between pages. Each one walks
 * an index of the initial schema (`(name, id)`, `(founded_year, id)`), forwards or backwards.
 *
 * Names compare by the column's collation: byte order on SQLite, the database collation on PostgreSQL
 * (C / C.UTF-8 gives the same order as SQLite).
 */
const ORDER_BY: Record<StartupSort, string> = {
  name: 's.name ASC, s.id ASC',
  '-name': 's.name DESC, s.id DESC',
  foundedYear: 's.founded_year ASC, s.id ASC',
  '-foundedYear': 's.founded_year DESC, s.id DESC',
};

const COLUMNS = 's.id, s.name, s.slug, s.description, s.website, s.founded_year, s.city, s.industry_id, i.name AS industry_name';

interface StartupRow {
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

/**
 * Startup reads: one query for the page (the industry joined in, no per-row lookups) and one count,
 * both raw SQL in the dialect of the connection.
 */
@Injectable()
export class StartupsService {
  constructor(private readonly dataSource: DataSource) {}

  async list(query: ListStartupsQueryDto): Promise<Paginated<StartupDto>> {
    const conditions: string[] = [];
    const values: unknown[] = [];
    const next = () => param(this.dataSource, values.length);

    if (query.industryId !== undefined) {
      values.push(query.industryId);
      conditions.push(`s.industry_id = ${next()}`);
    }
    const q = query.q?.trim();
    if (q) {
      values.push(containsPattern(q));
      conditions.push(`s.search_name LIKE ${next()} ESCAPE '${LIKE_ESCAPE}'`);
    }
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';

    const pageValues = [...values, query.limit, query.offset];
    // The page's ids are found first, walking only the sort index (it holds the sort columns and the id),
    // and just those 20 rows are then read and joined: an offset deep in the list skips index entries,
    // not whole rows with their industry.
    const pageSql =
      `SELECT ${COLUMNS} FROM startups s JOIN industries i ON i.id = s.industry_id WHERE s.id IN (` +
      `SELECT s.id FROM startups s ${where} ORDER BY ${ORDER_BY[query.sort]} ` +
      `LIMIT ${param(this.dataSource, values.length + 1)} OFFSET ${param(this.dataSource, values.length + 2)}) ` +
      `ORDER BY ${ORDER_BY[query.sort]}`;
    const countSql = `SELECT COUNT(*) AS total FROM startups s ${where}`;

    const [rows, counted] = await Promise.all([
      this.dataSource.query(pageSql, pageValues) as Promise<StartupRow[]>,
      this.dataSource.query(countSql, values) as Promise<Array<{ total: number | string }>>,
    ]);
    return new Paginated(rows.map(toDto), Number(counted[0].total), query.limit, query.offset);
  }

  /** One startup, or 404 NOT_FOUND. */
  async findById(id: number): Promise<StartupDto> {
    const rows: StartupRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM startups s JOIN industries i ON i.id = s.industry_id WHERE s.id = ${param(this.dataSource, 1)}`,
      [id],
    );
    if (!rows[0]) throw new AppError('NOT_FOUND');
    return toDto(rows[0]);
  }
}

function toDto(row: StartupRow): StartupDto {
  return {
    id: Number(row.id),
    name: row.name,
    slug: row.slug,
    description: row.description,
    website: row.website,
    foundedYear: Number(row.founded_year),
    city: row.city,
    industry: { id: Number(row.industry_id), name: row.industry_name },
  };
}
