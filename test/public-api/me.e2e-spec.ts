import { http } from '../helpers/http';
import { apiResourceMetadata } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';
import { bearer, createTestUser, issueTestToken } from '../helpers/tokens';

const ME = '/api/public/v1/me';

describe('GET /api/public/v1/me (docs/using-the-api.md)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers the token’s user as {id, name, email}', async () => {
    const user = await createTestUser(t.app, { name: 'Ayşe Yılmaz', email: 'Ayse.Yilmaz@Example.com' });
    const { token } = await issueTestToken(t.app, { scopes: ['profile'], user });
    const res = await http(t.url, ME, { headers: bearer(token) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: user.id, name: 'Ayşe Yılmaz', email: 'ayse.yilmaz@example.com' } });
    expect(res.headers.get('ratelimit-limit')).toBe('1200');
  });

  it('answers each token with its own user', async () => {
    const [a, b] = await Promise.all([
      issueTestToken(t.app, { scopes: ['profile', 'read:startups'] }),
      issueTestToken(t.app, { scopes: ['profile'] }),
    ]);
    expect((await http(t.url, ME, { headers: bearer(a.token) })).body.data.id).toBe(a.user.id);
    expect((await http(t.url, ME, { headers: bearer(b.token) })).body.data.id).toBe(b.user.id);
  });

  it('answers a token without the profile scope 403 naming the scope', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['read:startups'] });
    const res = await http(t.url, ME, { headers: { ...bearer(token), 'accept-language': 'en' } });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="api", error="insufficient_scope", scope="profile", ${apiResourceMetadata(t.url)}`);
    expect(res.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', message: 'The access token lacks the scope this operation needs.' });
  });

  it('answers without a token 401 with the bare challenge, and a bad token with invalid_token', async () => {
    const none = await http(t.url, ME);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer realm="api", ${apiResourceMetadata(t.url)}`);
    expect(none.body.error.code).toBe('UNAUTHORIZED');

    const expired = await issueTestToken(t.app, { scopes: ['profile'], expiresInMs: -1 });
    const res = await http(t.url, ME, { headers: bearer(expired.token) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="api", error="invalid_token", ${apiResourceMetadata(t.url)}`);
  });

  it('does not take the token from the query string', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['profile'] });
    const res = await http(t.url, `${ME}?access_token=${token}`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="api", ${apiResourceMetadata(t.url)}`);
  });

  it('refuses a token in the query string beside the header: one method per request (RFC 6750 §2)', async () => {
    const { token } = await issueTestToken(t.app, { scopes: ['profile'] });
    const res = await http(t.url, `${ME}?access_token=${token}`, { headers: bearer(token) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="api", error="invalid_token", ${apiResourceMetadata(t.url)}`);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});
