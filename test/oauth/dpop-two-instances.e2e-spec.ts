import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { dpopKey, DpopKey, dpopProof } from '../helpers/dpop';
import { http, HttpResponse } from '../helpers/http';
import { OAuthTestClient, registerClient } from '../helpers/oauth';
import { engine, isolatedStorage, startTestApp, TestApp } from '../helpers/test-app';

/**
 * A DPoP proof is accepted once across every instance (RFC 9449 §11.1, SECURITY.md "DPoP proof
 * replay"): two instances behind one PUBLIC_URL, sharing PostgreSQL and, when the suite runs with
 * TEST_REDIS_URL, Redis. A proof used on one is refused on the other, at the API and at the token
 * endpoint; remembered in Redis when it is configured, else in the database.
 */
const shared = engine() === 'postgres' ? describe : describe.skip;
const PUBLIC_URL = 'http://api.example.test';

function twoInstances(withRedis: boolean) {
  return () => {
    let storage: Awaited<ReturnType<typeof isolatedStorage>>;
    let a: TestApp;
    let b: TestApp;
    let client: OAuthTestClient;
    let key: DpopKey;

    beforeAll(async () => {
      storage = await isolatedStorage();
      const env = { ...storage.env, ...(withRedis ? {} : { REDIS_URL: '' }), PUBLIC_URL };
      // One after the other, so the migrations run once.
      a = await startTestApp(env);
      b = await startTestApp(env);
      client = await registerClient(a.app, { type: 'confidential', scopes: ['read:startups'] });
      key = await dpopKey('ES256');
    }, 300_000);
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await storage?.drop();
    });

    function tokenRequest(on: TestApp, proof: string): Promise<HttpResponse> {
      return http(on.url, '/oauth/token', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
          dpop: proof,
        },
        body: 'grant_type=client_credentials',
      });
    }

    it('refuses on one instance a proof already used on the other, at the token endpoint and at the API', async () => {
      const tokenProof = await dpopProof(key, { htm: 'POST', htu: `${PUBLIC_URL}/oauth/token` });
      const issued = await tokenRequest(a, tokenProof);
      expect([issued.status, issued.body?.token_type]).toEqual([200, 'DPoP']);
      const replayedAtToken = await tokenRequest(b, tokenProof);
      expect([replayedAtToken.status, replayedAtToken.body?.error]).toEqual([400, 'invalid_dpop_proof']);

      const token = issued.body.access_token as string;
      const proof = await dpopProof(key, { htm: 'GET', htu: `${PUBLIC_URL}/api/public/v1/startups`, accessToken: token });
      const call = (on: TestApp) => http(on.url, '/api/public/v1/startups', { headers: { authorization: `DPoP ${token}`, dpop: proof } });
      expect((await call(b)).status).toBe(200);
      const replayed = await call(a);
      expect(replayed.status).toBe(401);
      expect(replayed.headers.get('www-authenticate')).toMatch(/^DPoP realm="api", error="invalid_dpop_proof"/);

      // Remembered where every instance looks: Redis when configured, the database otherwise.
      const [{ n }] = await a.app.get(DataSource).query('SELECT COUNT(*)::int AS n FROM dpop_proofs');
      if (withRedis) {
        expect(n).toBe(0);
        const redis = new Redis(a.env.REDIS_URL, { lazyConnect: true });
        await redis.connect();
        try {
          expect(await redis.keys(`${a.env.REDIS_KEY_PREFIX}dpop:*`)).toHaveLength(2);
        } finally {
          redis.disconnect();
        }
      } else {
        expect(n).toBe(2);
      }
    });
  };
}

shared('DPoP proofs across two instances on PostgreSQL', () => {
  const redis = process.env.TEST_REDIS_URL ? describe : describe.skip;
  redis('with Redis', twoInstances(true));
  describe('without Redis (the database remembers)', twoInstances(false));
});
