import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { foldName } from '../../src/common/text/name-folding';
import { param } from '../../src/database/sql';
import { STARTUP_SORTS, StartupSort } from '../../src/startups/dto/list-startups.query.dto';
import { startupListSql } from '../../src/startups/startups.repository';
import { StartupsSeederService } from '../../src/startups/startups-seeder.service';
import { http } from '../helpers/http';
import { industryIds, insertStartups } from '../helpers/startups';
import { engine, startTestApp, TestApp } from '../helpers/test-app';
import { bearer, issueTestToken } from '../helpers/tokens';

const BASE = '/api/public/v1/startups';

interface Listed {
  id: number;
  name: string;
  foundedYear: number;
}

/** The contract's name order, written out: the folded name in byte order, then the id. */
const byFoldedName = (a: Listed, b: Listed) => Buffer.compare(Buffer.from(foldName(a.name)), Buffer.from(foldName(b.name))) || a.id - b.id;

/** What `q` matches, written out: a substring of the folded name from three characters, a prefix below. */
function matches(name: string, q: string): boolean {
  const term = foldName(q.trim());
  if (term === '') return true;
  return [...term].length >= 3 ? foldName(name).includes(term) : foldName(name).startsWith(term);
}

async function startWithToken(): Promise<{
  t: TestApp;
  auth: Record<string, string>;
}> {
  const t = await startTestApp();
  const { token } = await issueTestToken(t.app, { scopes: ['read:startups'] });
  return { t, auth: bearer(token) };
}

/** Every startup a query lists, page after page, and the totals the pages reported. */
async function listAll(t: TestApp, auth: Record<string, string>, query: string, pageSize = 100): Promise<{ ids: number[]; totals: number[] }> {
  const ids: number[] = [];
  const totals: number[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const res = await http(t.url, `${BASE}?${query}&limit=${pageSize}&offset=${offset}`, { headers: auth });
    expect(res.status).toBe(200);
    totals.push(res.body.meta.total);
    ids.push(...res.body.data.map((s: Listed) => s.id));
    if (res.body.data.length < pageSize) return { ids, totals };
  }
}

describe('name order and search (docs/using-the-api.md, "Ordering and search")', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let industries: Record<string, number>;
  let all: Listed[];
  const byName = new Map<string, Listed>();

  const NAMES: Array<[string, string]> = [
    ['Çorlu', 'Logistics'],
    ['Çorlu Lojistik', 'Logistics'],
    ['Corlu Gıda', 'Foodtech'],
    ['corlu Yazılım', 'SaaS'],
    ['CORLU', 'Logistics'],
    ['Cyber Kale', 'Cybersecurity'],
    ['AkılLink', 'SaaS'],
    ['Akılkale', 'Edtech'],
    ['akıllı Ev', 'IoT'],
    ['HR Tech Bulut', 'HR Tech'],
    ['Healthtech Labs', 'Healthtech'],
    ['İzmir Soft', 'SaaS'],
    ['Izgara Yazılım', 'SaaS'],
    ['ızgara', 'Foodtech'],
    ['Éclair Pay', 'Fintech'],
    ['Eclipse', 'Gaming'],
    ['Öğrenci Kart', 'Edtech'],
    ['Ogre Games', 'Gaming'],
    ['Kahve Dünyası', 'Foodtech'],
    ['KAHVECİ', 'Foodtech'],
    ['Kahvé Bar', 'Foodtech'],
    ['Şehir Tarım', 'Agritech'],
    ['Sehir Tarim Ağı', 'Agritech'],
    ['TARIM Veri', 'SaaS'],
  ];

  beforeAll(async () => {
    ({ t, auth } = await startWithToken());
    industries = await industryIds(t.app);
    await insertStartups(
      t.app,
      NAMES.map(([name, industry], i) => ({
        name,
        industryId: industries[industry],
        foundedYear: 2005 + (i % 7),
      })),
    );
    all = (await http(t.url, `${BASE}?limit=100`, { headers: auth })).body.data;
    for (const s of all) byName.set(s.name, s);
  });
  afterAll(() => t.close());

  const names = async (query: string) => {
    const res = await http(t.url, `${BASE}?${query}`, { headers: auth });
    expect(res.status).toBe(200);
    return {
      names: res.body.data.map((s: Listed) => s.name) as string[],
      total: res.body.meta.total as number,
    };
  };
  const q = (term: string, rest = '') => `q=${encodeURIComponent(term)}&limit=100${rest}`;
  const ids = (list: string[]) => list.map((name) => byName.get(name)!.id);

  it('orders by name regardless of case, accents and the Turkish i, ties by id', async () => {
    const order = all.map((s) => s.name);
    expect(all).toEqual([...all].sort(byFoldedName));
    expect(order.indexOf('Healthtech Labs')).toBeLessThan(order.indexOf('HR Tech Bulut'));
    expect(order.indexOf('Akılkale')).toBeLessThan(order.indexOf('AkılLink'));
    // Çorlu beside Corlu: `Çorlu` and `CORLU` fold to the same key and keep the order of their ids.
    const corlu = order.indexOf('Çorlu');
    expect(order.slice(corlu, corlu + 5)).toEqual(['Çorlu', 'CORLU', 'Corlu Gıda', 'Çorlu Lojistik', 'corlu Yazılım']);
    expect(order.slice(order.indexOf('ızgara'), order.indexOf('ızgara') + 3)).toEqual(['ızgara', 'Izgara Yazılım', 'İzmir Soft']);
    expect(order.slice(order.indexOf('Ogre Games'), order.indexOf('Ogre Games') + 2)).toEqual(['Ogre Games', 'Öğrenci Kart']);
  });

  it('orders -name as the exact reverse, and the same within an industry', async () => {
    const reversed = (await names('sort=-name&limit=100')).names;
    expect(reversed).toEqual(all.map((s) => s.name).reverse());
    const saas = (await names(`industryId=${industries.SaaS}&limit=100`)).names;
    expect(saas).toEqual(['AkılLink', 'corlu Yazılım', 'Izgara Yazılım', 'İzmir Soft', 'TARIM Veri']);
  });

  it.each([
    [
      ['ÇORLU', 'corlu', 'Corlu', 'çorlu', 'cORLu'],
      ['Çorlu', 'CORLU', 'Corlu Gıda', 'Çorlu Lojistik', 'corlu Yazılım'],
    ],
    [
      ['kahve', 'KAHVE', 'kahvé', 'KAHVÉ'],
      ['Kahvé Bar', 'Kahve Dünyası', 'KAHVECİ'],
    ],
    [
      ['tarım', 'TARIM', 'tarim', 'Tarım'],
      ['Şehir Tarım', 'Sehir Tarim Ağı', 'TARIM Veri'],
    ],
    [
      ['ızgara', 'IZGARA', 'izgara', 'İZGARA'],
      ['ızgara', 'Izgara Yazılım'],
    ],
    [['eclair', 'ÉCLAIR', 'éclair'], ['Éclair Pay']],
    [['ılLin', 'ILLIN', 'illin'], ['AkılLink']],
    [['lojist', 'LOJİST'], ['Çorlu Lojistik']],
    [['ogren', 'ÖĞREN', 'öğren'], ['Öğrenci Kart']],
    [
      ['r ta', 'R TA'],
      ['Şehir Tarım', 'Sehir Tarim Ağı'],
    ],
    [['zzz', 'çorlux'], []],
  ])('finds a substring of three characters or more in any case and accent: %j', async (terms, expected) => {
    for (const term of terms) {
      expect(await names(q(term))).toEqual({
        names: expected,
        total: expected.length,
      });
    }
  });

  it.each([
    [
      ['ç', 'C', 'c'],
      ['Çorlu', 'CORLU', 'Corlu Gıda', 'Çorlu Lojistik', 'corlu Yazılım', 'Cyber Kale'],
    ],
    [
      ['Ak', 'AK', 'ak'],
      ['Akılkale', 'akıllı Ev', 'AkılLink'],
    ],
    [
      ['ı', 'İ', 'I', 'i'],
      ['ızgara', 'Izgara Yazılım', 'İzmir Soft'],
    ],
    [
      ['öğ', 'OG', 'og'],
      ['Ogre Games', 'Öğrenci Kart'],
    ],
    [
      ['é', 'E'],
      ['Éclair Pay', 'Eclipse'],
    ],
    // Not a prefix of any name: a one- or two-character term does not look inside names.
    [['ev', 'rl', 'z'], []],
  ])('matches a term of one or two characters as the start of the name: %j', async (terms, expected) => {
    for (const term of terms) {
      expect(await names(q(term))).toEqual({
        names: expected,
        total: expected.length,
      });
    }
  });

  it('combines q with industryId, sort and paging, with an exact total on every page', async () => {
    expect(await names(q('corlu', `&industryId=${industries.Logistics}`))).toEqual({ names: ['Çorlu', 'CORLU', 'Çorlu Lojistik'], total: 3 });
    expect(await names(q('c', `&industryId=${industries.Logistics}&sort=-name`))).toEqual({ names: ['Çorlu Lojistik', 'CORLU', 'Çorlu'], total: 3 });
    expect(await names(q('kahve', `&industryId=${industries.SaaS}`))).toEqual({ names: [], total: 0 });
    // Past the last match the page is empty and the total still exact.
    expect(await names('q=corlu&offset=5')).toEqual({ names: [], total: 5 });
    expect(await names(`q=corlu&offset=50&industryId=${industries.Logistics}`)).toEqual({ names: [], total: 3 });
    expect(await names('q=co&offset=6')).toEqual({ names: [], total: 5 });

    const whole = ids(['Çorlu', 'CORLU', 'Corlu Gıda', 'Çorlu Lojistik', 'corlu Yazılım']);
    for (const [term, sort, expected] of [
      ['corlu', 'name', whole],
      ['corlu', '-name', [...whole].reverse()],
      ['c', 'name', [...whole, byName.get('Cyber Kale')!.id]],
    ] as const) {
      const paged = await listAll(t, auth, `q=${term}&sort=${sort}`, 2);
      expect(paged.ids).toEqual(expected);
      expect(new Set(paged.totals)).toEqual(new Set([expected.length]));
    }
    const byYear = await listAll(t, auth, 'q=tarım&sort=foundedYear', 1);
    const tarim = ['Sehir Tarim Ağı', 'Şehir Tarım', 'TARIM Veri'].map((name) => byName.get(name)!);
    expect(byYear.ids).toEqual(tarim.sort((a, b) => a.foundedYear - b.foundedYear || a.id - b.id).map((s) => s.id));
    expect(byYear.totals).toEqual([3, 3, 3, 3]);
  });

  it('keeps the search index in step with inserts, renames and deletes', async () => {
    const dataSource = t.app.get(DataSource);
    const [id] = await insertStartups(t.app, [
      {
        name: 'Zümrüt Kahve',
        industryId: industries.Foodtech,
        foundedYear: 2020,
      },
    ]);
    expect(await names(q('zumrut'))).toEqual({
      names: ['Zümrüt Kahve'],
      total: 1,
    });
    expect((await names(q('kahve'))).total).toBe(4);

    // A rename writes the name and its folded key together, as every writer does.
    await dataSource.query(`UPDATE startups SET name = ${param(dataSource, 1)}, sort_name = ${param(dataSource, 2)} WHERE id = ${param(dataSource, 3)}`, [
      'Yakut Çay',
      foldName('Yakut Çay'),
      id,
    ]);
    expect(await names(q('zumrut'))).toEqual({ names: [], total: 0 });
    expect(await names(q('YAKUT ÇAY'))).toEqual({
      names: ['Yakut Çay'],
      total: 1,
    });
    expect(await names(q('ya'))).toEqual({ names: ['Yakut Çay'], total: 1 });
    expect((await names(q('kahve'))).total).toBe(3);

    await dataSource.query(`DELETE FROM startups WHERE id = ${param(dataSource, 1)}`, [id]);
    expect(await names(q('yakut'))).toEqual({ names: [], total: 0 });
    expect(await names(q('ya'))).toEqual({ names: [], total: 0 });
  });
});

describe('search and order agree with the rule on random names (docs/using-the-api.md)', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let all: Listed[];
  // Letters that fold together (case, accents, the four i's), LIKE's and FTS5's special characters.
  const unit = fc.constantFrom(...'aAâçÇcCıIiİşŞsSéÉeE %_"*-\\'.split(''));

  beforeAll(async () => {
    ({ t, auth } = await startWithToken());
    const industryId = Object.values(await industryIds(t.app))[0];
    const generated = fc.sample(fc.string({ unit, minLength: 1, maxLength: 7 }), { numRuns: 80, seed: 15 });
    await insertStartups(
      t.app,
      generated.map((name, i) => ({
        name,
        industryId,
        foundedYear: 2005 + (i % 20),
      })),
    );
    all = (await listAll(t, auth, 'sort=name')).ids.map((id) => ({
      id,
      name: '',
      foundedYear: 0,
    }));
    const details = await Promise.all(all.map((s) => http(t.url, `${BASE}/${s.id}`, { headers: auth })));
    all = details.map((res) => res.body.data);
  });
  afterAll(() => t.close());

  it('lists exactly what the rule matches, in the rule order, with the exact total', async () => {
    const term = fc.oneof(
      fc.string({ unit, maxLength: 5 }),
      // Pieces of the names themselves, re-cased, so that most queries find something.
      fc.tuple(fc.nat(), fc.nat(7), fc.integer({ min: 1, max: 5 }), fc.boolean()).map(([i, start, length, upper]) => {
        const name = all[i % all.length].name;
        const piece = name.slice(start % name.length, (start % name.length) + length);
        return upper ? piece.toLocaleUpperCase('tr') : piece;
      }),
    );
    await fc.assert(
      fc.asyncProperty(term, fc.constantFrom<StartupSort>('name', '-name'), async (q, sort) => {
        const res = await http(t.url, `${BASE}?q=${encodeURIComponent(q)}&sort=${sort}&limit=100`, { headers: auth });
        expect(res.status).toBe(200);
        const expected = all.filter((s) => matches(s.name, q)).sort(byFoldedName);
        if (sort === '-name') expected.reverse();
        expect(res.body.data.map((s: Listed) => s.id)).toEqual(expected.map((s) => s.id));
        expect(res.body.meta.total).toBe(expected.length);
      }),
      { numRuns: 60 },
    );
  });
});

/** The nodes of a PostgreSQL JSON plan, flattened. */
function planNodes(node: Record<string, unknown>): Array<Record<string, unknown>> {
  const children = (node.Plans as Array<Record<string, unknown>> | undefined) ?? [];
  return [node, ...children.flatMap(planNodes)];
}

describe(`search stays an index lookup on ${engine()} (query plans)`, () => {
  let t: TestApp;
  let dataSource: DataSource;
  let industryId: number;

  // The contract's size: the planner's choice depends on it (on 20,000 rows PostgreSQL rightly prefers
  // reading the table to opening the GIN index).
  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(StartupsSeederService).seed({ startups: 100_000 });
    dataSource = t.app.get(DataSource);
    industryId = (await industryIds(t.app)).Agritech;
    if (engine() === 'postgres') await dataSource.query('ANALYZE startups');
  }, 120_000);
  afterAll(() => t.close());

  /** The plan of both statements of a list request, as one line per step. */
  async function plan(query: { q: string; sort: StartupSort; industryId?: number }): Promise<{ steps: string[]; nodes: Array<Record<string, unknown>> }> {
    const statements = startupListSql(engine(), {
      ...query,
      limit: 20,
      offset: 0,
    });
    const steps: string[] = [];
    const nodes: Array<Record<string, unknown>> = [];
    for (const statement of [statements.page, statements.count]) {
      if (engine() === 'postgres') {
        const [row] = await dataSource.query(`EXPLAIN (FORMAT JSON) ${statement.text}`, statement.values);
        const found = planNodes(row['QUERY PLAN'][0].Plan);
        nodes.push(...found);
        steps.push(...found.map((n) => `${n['Node Type']} ${n['Relation Name'] ?? ''} ${n['Index Name'] ?? ''} ${n.Filter ?? ''}`));
      } else {
        const rows: Array<{ detail: string }> = await dataSource.query(`EXPLAIN QUERY PLAN ${statement.text}`, statement.values);
        steps.push(...rows.map((r) => r.detail));
      }
    }
    return { steps, nodes };
  }

  /** No step reads the startups table or one of its indexes from end to end. */
  function expectNoScan(result: { steps: string[]; nodes: Array<Record<string, unknown>> }) {
    if (engine() === 'postgres') {
      const scans = result.nodes.filter(
        (n) => n['Relation Name'] === 'startups' && (n['Node Type'] === 'Seq Scan' || (String(n['Node Type']).includes('Index') && n.Filter !== undefined)),
      );
      expect(scans).toEqual([]);
    } else {
      expect(result.steps.filter((step) => /^SCAN (s|startups)\b/.test(step))).toEqual([]);
    }
  }

  it.each(STARTUP_SORTS.map((sort) => [sort]))('looks a term of three characters or more up in the trigram index (sort %s)', async (sort) => {
    for (const query of [
      { q: 'tarım', sort },
      { q: 'tarım', sort, industryId },
      { q: 'ZZQX', sort },
    ]) {
      const result = await plan(query);
      expectNoScan(result);
      if (engine() === 'postgres') {
        const lookups = result.nodes.filter((n) => n['Node Type'] === 'Bitmap Index Scan' && n['Index Name'] === 'idx_startups_sort_name_trgm');
        expect(lookups).toHaveLength(2); // the page and the count
      } else {
        expect(result.steps.filter((step) => /^SCAN startups_search VIRTUAL TABLE INDEX \d+:M/.test(step))).toHaveLength(2);
      }
    }
  });

  it('looks a term of one or two characters up as a range of the sort key', async () => {
    for (const query of [
      { q: 'ta', sort: 'name' as const },
      { q: 'Ç', sort: '-name' as const, industryId },
    ]) {
      const result = await plan(query);
      expectNoScan(result);
      const index = query.industryId ? 'idx_startups_industry_sort_name' : 'idx_startups_sort_name';
      if (engine() === 'postgres') {
        expect(result.nodes.filter((n) => n['Index Name'] === index && /sort_name\)?(::text)? >=/.test(String(n['Index Cond'])))).toHaveLength(2);
      } else {
        expect(
          result.steps.filter((step) => step.startsWith(`SEARCH s USING COVERING INDEX ${index} (`) && step.includes('sort_name>? AND sort_name<?')),
        ).toHaveLength(2);
      }
    }
  });

  it('answers from the index what a scan would answer', async () => {
    const startups: Array<{ name: string }> = await dataSource.query('SELECT name FROM startups');
    const { token } = await issueTestToken(t.app, {
      scopes: ['read:startups'],
    });
    for (const q of ['tarım', 'GÜVENLİK', 'ka']) {
      const res = await http(t.url, `${BASE}?q=${encodeURIComponent(q)}&limit=1`, { headers: bearer(token) });
      expect(res.body.meta.total).toBe(startups.filter((s) => matches(s.name, q)).length);
      expect(res.body.meta.total).toBeGreaterThan(0);
    }
  });
});
