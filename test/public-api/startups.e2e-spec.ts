import { DataSource } from 'typeorm';
import { foldName } from '../../src/common/text/name-folding';
import { param } from '../../src/database/sql';
import { StartupsSeederService } from '../../src/startups/startups-seeder.service';
import { createTestApiKey } from '../helpers/api-keys';
import { http } from '../helpers/http';
import { apiResourceMetadata } from '../helpers/oauth';
import { industryIds, insertStartups, StartupFixture } from '../helpers/startups';
import { startTestApp, TestApp } from '../helpers/test-app';
import { bearer, createTestClient, issueTestToken } from '../helpers/tokens';

const BASE = '/api/public/v1/startups';
const EN = { 'accept-language': 'en' };

interface Listed {
  id: number;
  name: string;
  foundedYear: number;
  industry: { id: number; name: string };
}

/** The contract's name order: the folded name in byte order (then the id, below), on both engines. */
const compareNames = (a: Listed, b: Listed) => Buffer.compare(Buffer.from(foldName(a.name)), Buffer.from(foldName(b.name)));
const ORDERS: Record<string, (a: Listed, b: Listed) => number> = {
  name: (a, b) => compareNames(a, b) || a.id - b.id,
  '-name': (a, b) => compareNames(b, a) || b.id - a.id,
  foundedYear: (a, b) => a.foundedYear - b.foundedYear || a.id - b.id,
  '-foundedYear': (a, b) => b.foundedYear - a.foundedYear || b.id - a.id,
};

describe('GET /api/public/v1/startups (docs/using-the-api.md)', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let industries: Record<string, number>;
  let all: Listed[];

  beforeAll(async () => {
    t = await startTestApp();
    industries = await industryIds(t.app);
    const fixtures: StartupFixture[] = [
      { name: '100% Organik', foundedYear: 2019, industryId: industries.Foodtech, city: 'İzmir' },
      { name: '1000 Organik Tarım', foundedYear: 2012, industryId: industries.Agritech },
      { name: 'a_b', foundedYear: 2020, industryId: industries.SaaS },
      { name: 'axb', foundedYear: 2020, industryId: industries.SaaS },
      { name: 'istanbul Pay', foundedYear: 2015, industryId: industries.Fintech },
      { name: 'İstanbul Labs', foundedYear: 2015, industryId: industries.Fintech },
      { name: 'ISTANBUL Veri', foundedYear: 2021, industryId: industries.SaaS, website: null },
      { name: 'Çınar Tarım', foundedYear: 2008, industryId: industries.Agritech, city: 'Konya' },
      { name: 'Back\\Slash', foundedYear: 2024, industryId: industries.Gaming },
      { name: 'Zeytin AI', foundedYear: 2015, industryId: industries['Artificial Intelligence'], city: 'Ankara' },
      { name: 'Zeytin AI', foundedYear: 2016, industryId: industries['Artificial Intelligence'], city: 'Bursa' },
      { name: 'alpha', foundedYear: 2005, industryId: industries.Fintech },
    ];
    await insertStartups(t.app, fixtures);
    const { token } = await issueTestToken(t.app, { scopes: ['read:startups'] });
    auth = bearer(token);
    const res = await http(t.url, `${BASE}?limit=100`, { headers: auth });
    all = res.body.data;
    expect(all).toHaveLength(fixtures.length);
  });
  afterAll(() => t.close());

  const list = (query: string, headers: Record<string, string> = {}) => http(t.url, `${BASE}${query}`, { headers: { ...auth, ...headers } });

  it('answers a page in the envelope with meta, 20 by default, sorted by name', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data', 'meta']);
    expect(res.body.meta).toEqual({ total: 12, limit: 20, offset: 0 });
    expect(res.body.data.map((s: Listed) => s.id)).toEqual([...all].sort(ORDERS.name).map((s) => s.id));
  });

  it('shows each startup as {id, name, slug, description, website, foundedYear, city, industry}', async () => {
    const res = await list('?q=100%25');
    expect(res.body.data).toEqual([
      {
        id: expect.any(Number),
        name: '100% Organik',
        slug: expect.stringMatching(/^100-organik-/),
        description: '100% Organik açıklaması.',
        website: 'https://100-organik.example',
        foundedYear: 2019,
        city: 'İzmir',
        industry: { id: industries.Foodtech, name: 'Foodtech' },
      },
    ]);
    const noWebsite = await list('?q=veri');
    expect(noWebsite.body.data[0].website).toBeNull();
  });

  it.each(['name', '-name', 'foundedYear', '-foundedYear'])('sorts by %s with the id as tie-break', async (sort) => {
    const res = await list(`?sort=${sort}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: Listed) => s.id)).toEqual([...all].sort(ORDERS[sort]).map((s) => s.id));
  });

  it('pages with limit and offset', async () => {
    const sorted = [...all].sort(ORDERS.foundedYear).map((s) => s.id);
    const pages: number[] = [];
    for (let offset = 0; offset < sorted.length; offset += 5) {
      const res = await list(`?sort=foundedYear&limit=5&offset=${offset}`);
      expect(res.body.meta).toEqual({ total: 12, limit: 5, offset });
      pages.push(...res.body.data.map((s: Listed) => s.id));
    }
    expect(pages).toEqual(sorted);
  });

  it('answers an offset past the end with an empty page and the right total', async () => {
    const res = await list('?offset=500&limit=10');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], meta: { total: 12, limit: 10, offset: 500 } });
  });

  it.each([
    ['?limit=0', 'limit', 'En az 1 olmalı.', 'Must be at least 1.'],
    ['?limit=101', 'limit', 'En fazla 100 olmalı.', 'Must be at most 100.'],
    ['?limit=2.5', 'limit', 'Tam sayı olmalı.', 'Must be a whole number.'],
    ['?limit=ten', 'limit', 'Tam sayı olmalı.', 'Must be a whole number.'],
    ['?offset=-1', 'offset', 'En az 0 olmalı.', 'Must be at least 0.'],
    ['?offset=99999999999999999999', 'offset', 'En fazla 2147483647 olmalı.', 'Must be at most 2147483647.'],
    ['?offset=1e3', 'offset', 'Tam sayı olmalı.', 'Must be a whole number.'],
    ['?industryId=fintech', 'industryId', 'Tam sayı olmalı.', 'Must be a whole number.'],
    [
      '?sort=size',
      'sort',
      'Şu değerlerden biri olmalı: name, -name, foundedYear, -foundedYear.',
      'Must be one of: name, -name, foundedYear, -foundedYear.',
    ],
    ['?q=(201 characters)', 'q', 'En fazla 200 karakter olmalı.', 'Must be at most 200 characters long.'],
    ['?q=a%00b', 'q', 'Kontrol karakteri içeremez.', 'Must not contain control characters.'],
    ['?q=a&q=b', 'q', 'Metin olmalı.', 'Must be a string.'],
    ['?page=2', 'page', 'Bilinmeyen alan.', 'Unknown field.'],
  ])('refuses %s with VALIDATION_ERROR on %s, in both languages', async (label, field, tr, en) => {
    const query = label.replace('(201 characters)', 'x'.repeat(201));
    const resTr = await list(query);
    expect(resTr.status).toBe(400);
    expect(resTr.body.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'İstek geçersiz; ayrıntılara bakın.',
      requestId: resTr.headers.get('x-request-id'),
      details: [{ field, message: tr }],
    });
    const resEn = await list(query, EN);
    expect(resEn.body.error.message).toBe('The request is invalid; see details.');
    expect(resEn.body.error.details).toEqual([{ field, message: en }]);
  });

  it('filters by industryId', async () => {
    const res = await list(`?industryId=${industries.Fintech}`);
    expect(res.body.meta.total).toBe(3);
    expect(res.body.data.map((s: Listed) => s.name)).toEqual(['alpha', 'İstanbul Labs', 'istanbul Pay']);
    for (const s of res.body.data) expect(s.industry).toEqual({ id: industries.Fintech, name: 'Fintech' });
    const none = await list('?industryId=999999');
    expect(none.body).toEqual({ data: [], meta: { total: 0, limit: 20, offset: 0 } });
  });

  it('matches % and _ in q literally', async () => {
    const names = async (q: string) => (await list(`?q=${encodeURIComponent(q)}`)).body.data.map((s: Listed) => s.name);
    expect(await names('100%')).toEqual(['100% Organik']);
    expect(await names('0% o')).toEqual(['100% Organik']);
    expect(await names('a_b')).toEqual(['a_b']);
    expect(await names('k\\s')).toEqual(['Back\\Slash']);
    expect(await names('organik')).toEqual(['100% Organik', '1000 Organik Tarım']);
    // Shorter terms match the start of the name, with the same literal % and _.
    expect(await names('a_')).toEqual(['a_b']);
    expect(await names('%')).toEqual([]);
    expect(await names('_')).toEqual([]);
  });

  it('searches case-insensitively, Turkish i/ı/İ/I included', async () => {
    const istanbul = ['ISTANBUL Veri', 'istanbul Pay', 'İstanbul Labs'].sort();
    for (const q of ['İSTANBUL', 'istanbul', 'ISTANBUL', 'ıstanbul', 'İstanbul']) {
      const res = await list(`?q=${encodeURIComponent(q)}`);
      expect(res.body.data.map((s: Listed) => s.name).sort()).toEqual(istanbul);
      expect(res.body.meta.total).toBe(3);
    }
    const cinar = await list(`?q=${encodeURIComponent('ÇINAR')}`);
    expect(cinar.body.data.map((s: Listed) => s.name)).toEqual(['Çınar Tarım']);
    const tarim = await list(`?q=${encodeURIComponent('TARIM')}&sort=-name`);
    expect(tarim.body.data.map((s: Listed) => s.name)).toEqual(['Çınar Tarım', '1000 Organik Tarım']);
  });

  it('combines search, filter, sort and paging, and ignores surrounding spaces in q', async () => {
    const res = await list(`?q=${encodeURIComponent(' zeytin ')}&industryId=${industries['Artificial Intelligence']}&sort=-foundedYear&limit=1&offset=1`);
    expect(res.body.meta).toEqual({ total: 2, limit: 1, offset: 1 });
    expect(res.body.data.map((s: Listed) => [s.name, s.foundedYear])).toEqual([['Zeytin AI', 2015]]);
  });

  it('answers GET /startups/{id}, 404 for an unknown id and VALIDATION_ERROR for a bad one', async () => {
    const listed = (await list('?q=alpha')).body.data[0];
    const one = await http(t.url, `${BASE}/${listed.id}`, { headers: auth });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ data: listed });

    const missing = await http(t.url, `${BASE}/987654`, { headers: { ...auth, ...EN } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'The requested resource was not found.' });

    const bad = await http(t.url, `${BASE}/abc`, { headers: auth });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ field: 'id', message: 'Tam sayı olmalı.' }]);
  });
});

describe('Bearer access to /startups (RFC 6750, docs/using-the-api.md, Envelopes)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const expectUnauthorized = async (headers: Record<string, string>, challenge: string, path = BASE) => {
    const res = await http(t.url, path, { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(challenge);
    expect(res.body).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Geçerli bir oturum gerekli.', requestId: res.headers.get('x-request-id') } });
    return res;
  };

  it('answers a request without a token 401 with the bare challenge, in both languages', async () => {
    await expectUnauthorized({}, `Bearer realm="api", ${apiResourceMetadata(t.url)}`);
    await expectUnauthorized({}, `Bearer realm="api", ${apiResourceMetadata(t.url)}`, `${BASE}/1`);
    const en = await http(t.url, BASE, { headers: EN });
    expect(en.body.error.message).toBe('A valid session is required.');
  });

  it('treats credentials of another scheme as no token (RFC 6750 §3)', async () => {
    await expectUnauthorized({ authorization: 'Basic dXNlcjpwYXNzd29yZA==' }, `Bearer realm="api", ${apiResourceMetadata(t.url)}`);
  });

  it.each([
    ['an empty Bearer token', 'Bearer'],
    ['a token with characters outside b64token', 'Bearer sp_at_abc$def'],
    ['a token in two parts', 'Bearer sp_at_abc def'],
    ['a token of another kind', 'Bearer sp_rt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['an unknown token', 'Bearer sp_at_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
  ])('answers %s 401 invalid_token', async (_case, authorization) => {
    await expectUnauthorized({ authorization }, `Bearer realm="api", error="invalid_token", ${apiResourceMetadata(t.url)}`);
  });

  it('answers an expired token 401 invalid_token', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['read:startups'], expiresInMs: -1000 });
    await expectUnauthorized(bearer(token), `Bearer realm="api", error="invalid_token", ${apiResourceMetadata(t.url)}`);
  });

  it('answers a revoked token 401 invalid_token', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['read:startups'], revoked: true });
    await expectUnauthorized(bearer(token), `Bearer realm="api", error="invalid_token", ${apiResourceMetadata(t.url)}`);
  });

  it('refuses the tokens of a deleted client', async () => {
    const { token, clientId } = await issueTestToken(t.app, { scopes: ['read:startups'] });
    expect((await http(t.url, BASE, { headers: bearer(token) })).status).toBe(200);
    const dataSource = t.app.get(DataSource);
    await dataSource.query(`DELETE FROM oauth_clients WHERE id = ${param(dataSource, 1)}`, [clientId]);
    await expectUnauthorized(bearer(token), `Bearer realm="api", error="invalid_token", ${apiResourceMetadata(t.url)}`);
  });

  it('accepts the scheme name in any case', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['read:startups'] });
    expect((await http(t.url, BASE, { headers: { authorization: `bearer ${token}` } })).status).toBe(200);
  });

  it('does not accept a token in the query string (RFC 6750 §2.3 not supported)', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['read:startups'] });
    await expectUnauthorized({}, `Bearer realm="api", ${apiResourceMetadata(t.url)}`, `${BASE}?access_token=${token}`);
  });

  it('answers a token without the scope 403 INSUFFICIENT_SCOPE naming the scope', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['profile'] });
    for (const path of [BASE, `${BASE}/1`]) {
      const res = await http(t.url, path, { headers: bearer(token) });
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="api", error="insufficient_scope", scope="read:startups", ${apiResourceMetadata(t.url)}`);
      expect(res.body).toEqual({
        error: { code: 'INSUFFICIENT_SCOPE', message: 'Erişim belirtecinin bu işlem için yetkisi yok.', requestId: res.headers.get('x-request-id') },
      });
    }
    const en = await http(t.url, BASE, { headers: { ...bearer(token), ...EN } });
    expect(en.body.error.message).toBe('The access token lacks the scope this operation needs.');
  });

  it('accepts a valid API key beside the token and refuses an invalid one', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['read:startups'] });
    const { key } = await createTestApiKey(t.app, 'partner');
    expect((await http(t.url, BASE, { headers: { ...bearer(token), 'x-api-key': key } })).status).toBe(200);

    const revoked = await createTestApiKey(t.app, 'standard', { revoked: true });
    for (const bad of [revoked.key, 'sp_key_unknownunknownunknownunknown']) {
      const res = await http(t.url, BASE, { headers: { ...bearer(token), 'x-api-key': bad } });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
      expect(res.headers.get('www-authenticate')).toBe(`ApiKey realm="api", Bearer realm="api", ${apiResourceMetadata(t.url)}`);
    }
  });

  it('does not let an API key stand in for the token', async () => {
    const { key } = await createTestApiKey(t.app, 'partner');
    await expectUnauthorized({ 'x-api-key': key }, `Bearer realm="api", ${apiResourceMetadata(t.url)}`);
  });
});

describe('a larger, seeded list', () => {
  let t: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(StartupsSeederService).seed({ startups: 230 });
    auth = bearer((await issueTestToken(t.app, { scopes: ['read:startups'], clientId: await createTestClient(t.app) })).token);
  });
  afterAll(() => t.close());

  it.each(['name', '-foundedYear'])('pages through every startup exactly once in %s order', async (sort) => {
    const seen: Listed[] = [];
    for (let offset = 0; ; offset += 100) {
      const res = await http(t.url, `${BASE}?limit=100&offset=${offset}&sort=${sort}`, { headers: auth });
      expect(res.body.meta.total).toBe(230);
      if (res.body.data.length === 0) break;
      seen.push(...res.body.data);
    }
    expect(seen).toHaveLength(230);
    expect(new Set(seen.map((s) => s.id)).size).toBe(230);
    expect(seen).toEqual([...seen].sort(ORDERS[sort]));
  });
});
