import { Clock } from '../../src/common/clock';
import { http } from '../helpers/http';
import { runCli } from '../helpers/processes';
import { queryStorage } from '../helpers/storage-query';
import { startTestApp } from '../helpers/test-app';

interface Grant {
  user_id: number;
  access_token: string;
  refresh_token: string;
}

/**
 * TOKEN_CACHE_TTL_MS: valid access tokens are remembered for a while. What this instance revokes is
 * refused at once; what is revoked elsewhere is refused within the TTL.
 */
describe('access-token cache (TOKEN_CACHE_TTL_MS)', () => {
  async function appWithGrants(ttlMs: string, users: number) {
    const t = await startTestApp({ TOKEN_CACHE_TTL_MS: ttlMs });
    const client = (await runCli(['clients:create', '--name', 'Cache', '--redirect-uri', 'http://127.0.0.1:8080/cb', '--scopes', 'profile', '--json'], t.env)).json;
    const grants: Grant[] = (await runCli(['seed', '--startups', '0', '--users', String(users), '--tokens-for', client.client_id, '--json'], t.env)).json.grants;
    const post = (path: string, fields: Record<string, string>) =>
      http(t.url, path, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(fields).toString(),
      });
    const me = async (grant: Grant) => (await http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${grant.access_token}` } })).status;
    return { t, grants, post, me };
  }

  describe('with a long TTL', () => {
    let app: Awaited<ReturnType<typeof appWithGrants>>;
    beforeAll(async () => {
      app = await appWithGrants('60000', 3);
    });
    afterAll(() => app.t.close());

    it('refuses a token revoked on this instance (RFC 7009) from the next request on', async () => {
      const [grant] = app.grants;
      expect(await app.me(grant)).toBe(200);
      expect((await app.post('/oauth/revoke', { token: grant.access_token })).status).toBe(200);
      expect(await app.me(grant)).toBe(401);
    });

    it('refuses the access token of a grant revoked by a replayed refresh token at once', async () => {
      const grant = app.grants[1];
      expect(await app.me(grant)).toBe(200);
      expect((await app.post('/oauth/token', { grant_type: 'refresh_token', refresh_token: grant.refresh_token })).status).toBe(200);
      expect((await app.post('/oauth/token', { grant_type: 'refresh_token', refresh_token: grant.refresh_token })).status).toBe(400);
      expect(await app.me(grant)).toBe(401);
    });

    it('serves a token revoked behind its back (another instance, the database) until the TTL ends', async () => {
      const grant = app.grants[2];
      expect(await app.me(grant)).toBe(200);
      await queryStorage(app.t.env, `UPDATE oauth_access_tokens SET revoked_at = 1 WHERE user_id = ${grant.user_id}`);
      expect(await app.me(grant)).toBe(200);
    });
  });

  // The TTL runs on the app's Clock (src/common/clock.ts): the test moves it to either side of the end
  // instead of sleeping past it, so the answer never depends on how busy the machine is.
  it('refuses a token revoked elsewhere once the TTL has passed, and not a moment before', async () => {
    const app = await appWithGrants('60000', 1);
    try {
      const loadedAt = Date.now();
      const clock = jest.spyOn(app.t.app.get(Clock), 'now').mockReturnValue(loadedAt);
      const [grant] = app.grants;
      expect(await app.me(grant)).toBe(200);
      await queryStorage(app.t.env, `UPDATE oauth_access_tokens SET revoked_at = 1 WHERE user_id = ${grant.user_id}`);
      clock.mockReturnValue(loadedAt + 59_999);
      expect(await app.me(grant)).toBe(200);
      clock.mockReturnValue(loadedAt + 60_000);
      expect(await app.me(grant)).toBe(401);
    } finally {
      await app.t.close();
    }
  });
});
