import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/** `GET /` (README.md, Pages): a small page for a person in a browser, the JSON 404 envelope for an API client. */
describe('the front page at /', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ PLATFORM_NAME: 'Girişim Ağı' });
  });
  afterAll(() => t?.close());

  it.each([
    ['tr', 'tr-TR,tr;q=0.9', 'API başvuru belgesi', 'Geliştirici portalı', 'Hesabınız'],
    ['en', 'en-GB,en;q=0.9', 'API reference', 'Developer portal', 'Your account'],
  ])('answers a browser (%s) with a page naming the platform and linking the reference, the portal, the account and discovery', async (language, acceptLanguage, docs, portal, account) => {
    const response = await http(t.url, '/', { headers: { accept: BROWSER_ACCEPT, 'accept-language': acceptLanguage } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-language')).toBe(language);
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'$/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.text).toContain(`<html lang="${language}">`);
    expect(response.text).toContain('<title>Girişim Ağı</title>');
    expect(response.text).toContain('<h1>Girişim Ağı</h1>');
    expect(response.text).toContain(`<a href="/docs">${docs}</a>`);
    expect(response.text).toContain(`<a href="/account/developer">${portal}</a>`);
    expect(response.text).toContain(`<a href="/account">${account}</a>`);
    expect(response.text).toContain('<a href="/.well-known/openid-configuration">');
    expect(response.text).not.toContain('<script');
  });

  it.each([
    ['no Accept', {}],
    ['Accept: */*', { accept: '*/*' }],
    ['Accept: application/json', { accept: 'application/json' }],
    ['JSON preferred to HTML', { accept: 'application/json, text/html;q=0.5' }],
  ])('answers an API client (%s) with the JSON 404 envelope, as any unknown path', async (_name, headers: Record<string, string>) => {
    const response = await http(t.url, '/', { headers: { ...headers, 'accept-language': 'en' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ error: { code: 'NOT_FOUND', message: 'The requested resource was not found.', requestId: expect.any(String) } });
    const unknown = await http(t.url, '/no-such-page', { headers: { ...headers, 'accept-language': 'en' } });
    expect({ ...unknown.body.error, requestId: 'x' }).toEqual({ ...response.body.error, requestId: 'x' });
  });

  it('refuses another method on / as any known path does (405 with Allow)', async () => {
    const response = await http(t.url, '/', { method: 'POST', headers: { accept: BROWSER_ACCEPT } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
  });
});
