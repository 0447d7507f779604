import fc from 'fast-check';
import { BrowserSession, registerClient, OAuthTestClient, authorizePath } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

/** Hostile values of the OpenID Connect parameters: an answer of the contract's shape, never a 5xx, never an open redirect. */
describe('hostile OpenID Connect parameters', () => {
  let t: TestApp;
  let c: OAuthTestClient;
  const REDIRECT = 'http://127.0.0.1:9/callback';

  beforeAll(async () => {
    t = await startTestApp();
    c = await registerClient(t.app, { scopes: ['openid', 'email'], redirectUris: [REDIRECT] });
  });
  afterAll(() => t.close());

  const nasty = fc.oneof(fc.string({ maxLength: 600 }), fc.constantFrom('', '-1', '1e3', '0x10', '9999999999', '\u0000', '<script>', '%00', ' 5', '3.5'));

  it('authorize answers nonce, max_age and login_hint with a page or a redirect to the registered URI', async () => {
    await fc.assert(
      fc.asyncProperty(fc.record({ nonce: fc.option(nasty, { nil: undefined }), max_age: fc.option(nasty, { nil: undefined }), login_hint: fc.option(nasty, { nil: undefined }) }), async (extra) => {
        const res = await new BrowserSession(t.url).get(
          authorizePath({ response_type: 'code', client_id: c.clientId, redirect_uri: REDIRECT, scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', ...extra }),
        );
        const where = JSON.stringify(extra).slice(0, 200);
        expect([where, res.status === 200 || res.status === 302]).toEqual([where, true]);
        if (res.status === 302) {
          const location = new URL(res.location!);
          expect([where, `${location.origin}${location.pathname}`, location.searchParams.get('error')]).toEqual([where, REDIRECT, 'invalid_request']);
        } else {
          expect([where, res.text]).toEqual([where, expect.stringContaining('name="password"')]);
          expect([where, res.text.includes('<script>')]).toEqual([where, false]);
        }
      }),
      { numRuns: 120 },
    );
  }, 120_000);

  it('logout answers any query without a valid hint with a page, never a redirect or a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.record({ id_token_hint: fc.option(nasty, { nil: undefined }), post_logout_redirect_uri: fc.option(fc.oneof(nasty, fc.constant(REDIRECT)), { nil: undefined }), state: fc.option(nasty, { nil: undefined }), client_id: fc.option(fc.oneof(nasty, fc.constant(c.clientId)), { nil: undefined }) }), async (q) => {
        const query = new URLSearchParams(Object.entries(q).filter(([, v]) => v !== undefined) as [string, string][]).toString();
        const res = await new BrowserSession(t.url).get(`/oauth/logout?${query}`);
        const where = query.slice(0, 200);
        expect([where, [200, 302, 400].includes(res.status)]).toEqual([where, true]);
        // No one is signed in and no hint here is valid: nothing vouches for an address, so no redirect at all.
        expect([where, res.status]).not.toEqual([where, 302]);
        expect([where, res.headers.get('content-type')]).toEqual([where, expect.stringMatching(/^text\/html/)]);
      }),
      { numRuns: 120 },
    );
  }, 120_000);
});
