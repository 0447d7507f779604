import { DataSource } from 'typeorm';
import { ApiKeysService } from '../../src/api-keys/api-keys.service';
import { Clock } from '../../src/common/clock';
import { INDUSTRY_NAMES } from '../../src/database/migrations/1763700000001-seed-industries';
import { param } from '../../src/database/sql';
import { IndustriesService } from '../../src/industries/industries.service';
import { foldName } from '../../src/common/text/name-folding';
import { createTestApiKey } from '../helpers/api-keys';
import { eventually } from '../helpers/eventually';
import { http } from '../helpers/http';
import { insertIndustry } from '../helpers/startups';
import { apiResourceMetadata } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

const BASE = '/api/public/v1/industries';
const EN = { 'accept-language': 'en' };

/** The contract's name order: the folded key in byte order, then the id. */
const byName = (a: { name: string; id: number }, b: { name: string; id: number }) =>
  Buffer.compare(Buffer.from(foldName(a.name)), Buffer.from(foldName(b.name))) || a.id - b.id;

describe('GET /api/public/v1/industries (docs/using-the-api.md)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lists every industry as {id, name}, ordered by name, in the envelope', async () => {
    const res = await http(t.url, BASE);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-language')).toBe('tr');
    expect(Object.keys(res.body)).toEqual(['data']);
    const list = res.body.data as Array<{ id: number; name: string }>;
    expect(list.map((i) => i.name).sort()).toEqual([...INDUSTRY_NAMES].sort());
    for (const industry of list) expect(Object.keys(industry).sort()).toEqual(['id', 'name']);
    expect(list).toEqual([...list].sort(byName));
    const names = list.map((i) => i.name);
    expect(names.indexOf('Healthtech')).toBe(names.indexOf('HR Tech') - 1);
  });

  it('orders names by their folded form, whatever their case, accents or Turkish i, then by id', async () => {
    for (const name of ['İşletme Yazılımı', 'ısı Teknolojileri', 'Isıtma', 'Çevre Teknolojileri', 'cevre Danışmanlığı', 'CEVRE', 'Açık Kaynak', 'açık Veri']) {
      await insertIndustry(t.app, name);
    }
    t.app.get(IndustriesService).invalidate();
    const names = ((await http(t.url, BASE)).body.data as Array<{ name: string }>).map((i) => i.name);
    const from = (first: string, count: number) => names.slice(names.indexOf(first), names.indexOf(first) + count);
    expect(from('Açık Kaynak', 3)).toEqual(['Açık Kaynak', 'açık Veri', 'Agritech']);
    expect(from('CEVRE', 4)).toEqual(['CEVRE', 'cevre Danışmanlığı', 'Çevre Teknolojileri', 'Cleantech']);
    expect(from('Insurtech', 5)).toEqual(['Insurtech', 'IoT', 'ısı Teknolojileri', 'Isıtma', 'İşletme Yazılımı']);
  });

  it('answers one industry by id', async () => {
    const list = (await http(t.url, BASE)).body.data as Array<{ id: number; name: string }>;
    const fintech = list.find((i) => i.name === 'Fintech')!;
    const res = await http(t.url, `${BASE}/${fintech.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: fintech });
  });

  it('answers an unknown id 404 NOT_FOUND, in both languages', async () => {
    const tr = await http(t.url, `${BASE}/999999`);
    expect(tr.status).toBe(404);
    expect(tr.body).toEqual({ error: { code: 'NOT_FOUND', message: 'İstenen kaynak bulunamadı.', requestId: tr.headers.get('x-request-id') } });
    const en = await http(t.url, `${BASE}/999999`, { headers: EN });
    expect(en.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'The requested resource was not found.' });
    expect(en.headers.get('content-language')).toBe('en');
  });

  it.each([
    ['abc', 'Tam sayı olmalı.', 'Must be a whole number.'],
    ['1.5', 'Tam sayı olmalı.', 'Must be a whole number.'],
    ['0', 'En az 1 olmalı.', 'Must be at least 1.'],
    ['99999999999', 'En fazla 2147483647 olmalı.', 'Must be at most 2147483647.'],
  ])('answers id %s with VALIDATION_ERROR on field id', async (id, tr, en) => {
    const resTr = await http(t.url, `${BASE}/${id}`);
    expect(resTr.status).toBe(400);
    expect(resTr.body.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'İstek geçersiz; ayrıntılara bakın.',
      requestId: resTr.headers.get('x-request-id'),
      details: [{ field: 'id', message: tr }],
    });
    const resEn = await http(t.url, `${BASE}/${id}`, { headers: EN });
    expect(resEn.body.error.message).toBe('The request is invalid; see details.');
    expect(resEn.body.error.details).toEqual([{ field: 'id', message: en }]);
  });

  it('refuses unknown query fields', async () => {
    const res = await http(t.url, `${BASE}?colour=red`, { headers: EN });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'colour', message: 'Unknown field.' }]);
    const one = await http(t.url, `${BASE}/1?x=1`, { headers: EN });
    expect(one.status).toBe(400);
    expect(one.body.error.details).toEqual([{ field: 'x', message: 'Unknown field.' }]);
  });

  it('serves the list from memory and shows a change after invalidate()', async () => {
    const dataSource = t.app.get(DataSource);
    await dataSource.query(`INSERT INTO industries (name, sort_name) VALUES (${param(dataSource, 1)}, ${param(dataSource, 2)})`, [
      'Aaa Test Industry',
      'aaa test industry',
    ]);
    const cached = await http(t.url, BASE);
    expect(cached.body.data.map((i: { name: string }) => i.name)).not.toContain('Aaa Test Industry');

    t.app.get(IndustriesService).invalidate();
    const fresh = await http(t.url, BASE);
    const added = fresh.body.data.find((i: { name: string }) => i.name === 'Aaa Test Industry');
    expect(added).toBeDefined();
    expect(fresh.body.data[0]).toEqual(added);
    expect((await http(t.url, `${BASE}/${added.id}`)).body).toEqual({ data: added });
  });
});

describe('industries with and without an API key (docs/using-the-api.md)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_ANONYMOUS: '50', RATE_LIMIT_STANDARD: '500', RATE_LIMIT_PARTNER: '5000' });
  });
  afterAll(() => t.close());

  it('serves anonymous callers on the per-IP tier', async () => {
    const res = await http(t.url, BASE);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('50');
  });

  it.each([
    ['standard', '500'],
    ['partner', '5000'],
  ] as const)('serves a valid %s key on its tier', async (tier, limit) => {
    const { key } = await createTestApiKey(t.app, tier);
    const res = await http(t.url, BASE, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe(limit);
    expect(res.headers.get('ratelimit-remaining')).toBe(String(Number(limit) - 1));
  });

  it.each([
    ['unknown', async () => 'sp_key_' + 'A'.repeat(43)],
    ['revoked', async () => (await createTestApiKey(t.app, 'partner', { revoked: true })).key],
    ['malformed', async () => 'not a key'],
    ['empty', async () => ''],
  ])('answers a key that is %s 401 INVALID_API_KEY, never anonymous', async (_case, makeKey) => {
    const key = await makeKey();
    const tr = await http(t.url, BASE, { headers: { 'x-api-key': key } });
    expect(tr.status).toBe(401);
    expect(tr.body).toEqual({
      error: { code: 'INVALID_API_KEY', message: 'API anahtarı geçersiz ya da iptal edilmiş.', requestId: tr.headers.get('x-request-id') },
    });
    expect(tr.headers.get('ratelimit-limit')).toBe('50');
    // Every 401 of the public API points at its metadata (RFC 9728 §5.1), this one too.
    expect(tr.headers.get('www-authenticate')).toBe(`ApiKey realm="api", Bearer realm="api", ${apiResourceMetadata(t.url)}`);
    const en = await http(t.url, `${BASE}/1`, { headers: { 'x-api-key': key, ...EN } });
    expect(en.status).toBe(401);
    expect(en.body.error.message).toBe('The API key is invalid or revoked.');
  });

  it('refuses a key from the request after it is revoked', async () => {
    const { id, key } = await createTestApiKey(t.app, 'standard');
    expect((await http(t.url, BASE, { headers: { 'x-api-key': key } })).status).toBe(200);
    await t.app.get(ApiKeysService, { strict: false }).revoke(id);
    expect((await http(t.url, BASE, { headers: { 'x-api-key': key } })).status).toBe(401);
  });

  it('records when a key was last used', async () => {
    const { id, key } = await createTestApiKey(t.app, 'standard');
    const service = t.app.get(ApiKeysService, { strict: false });
    expect((await service.findById(id))!.lastUsedAt).toBeNull();
    // The time of use is the app's Clock (src/common/clock.ts): set, so that the stored value is exact.
    const usedAt = Date.now() - 12_345;
    const clock = jest.spyOn(t.app.get(Clock), 'now').mockReturnValue(usedAt);
    try {
      await http(t.url, BASE, { headers: { 'x-api-key': key } });
      await http(t.url, BASE, { headers: { 'x-api-key': key } });
      // The write happens beside the request, not in it: wait for it, not for a fixed time.
      expect(await eventually(async () => (await service.findById(id))!.lastUsedAt)).toBe(usedAt);
    } finally {
      clock.mockRestore();
    }
  });
});
