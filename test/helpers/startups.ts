import { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { params } from '../../src/database/sql';
import { slugify } from '../../src/startups/demo-startups';
import { foldName } from '../../src/common/text/name-folding';

export interface StartupFixture {
  name: string;
  foundedYear: number;
  industryId: number;
  city?: string;
  website?: string | null;
  description?: string;
}

/** Inserts startups as the seeder would (sort_name folded with the same function); returns their ids in order. */
export async function insertStartups(app: INestApplication, fixtures: StartupFixture[]): Promise<number[]> {
  const dataSource = app.get(DataSource);
  const ids: number[] = [];
  for (const [i, f] of fixtures.entries()) {
    const rows: Array<{ id: number | string }> = await dataSource.query(
      `INSERT INTO startups (name, sort_name, slug, description, website, founded_year, city, industry_id) VALUES (${params(dataSource, 8)}) RETURNING id`,
      [
        f.name,
        foldName(f.name),
        `${slugify(f.name) || 'startup'}-${i}-${Date.now().toString(36)}`,
        f.description ?? `${f.name} açıklaması.`,
        f.website === undefined ? `https://${slugify(f.name) || 'startup'}.example` : f.website,
        f.foundedYear,
        f.city ?? 'İstanbul',
        f.industryId,
      ],
    );
    ids.push(Number(rows[0].id));
  }
  return ids;
}

/** Adds an industry as the seeder would (sort_name folded with the same function); returns its id. */
export async function insertIndustry(app: INestApplication, name: string): Promise<number> {
  const dataSource = app.get(DataSource);
  const rows: Array<{ id: number | string }> = await dataSource.query(
    `INSERT INTO industries (name, sort_name) VALUES (${params(dataSource, 2)}) RETURNING id`,
    [name, foldName(name)],
  );
  return Number(rows[0].id);
}

/** Industry ids by name, as the migration seeded them. */
export async function industryIds(app: INestApplication): Promise<Record<string, number>> {
  const rows: Array<{ id: number | string; name: string }> = await app.get(DataSource).query('SELECT id, name FROM industries');
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.id)]));
}
