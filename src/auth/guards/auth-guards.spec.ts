import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { Test } from '@nestjs/testing';
import { ApiKeysService } from '../../api-keys/api-keys.service';
import { AppError } from '../../common/errors/app-error';
import { RateLimitService } from '../../rate-limit/rate-limit.service';
import { AccessTokenLookupService } from '../access-token-lookup.service';
import { DpopChallenge } from '../challenges';
import { DpopService } from '../dpop/dpop.service';
import { AccessTokenGrant, ApiKeyIdentity } from '../principal';
import { ApiKeyStrategy } from '../strategies/api-key.strategy';
import { BearerStrategy } from '../strategies/bearer.strategy';
import { DpopStrategy } from '../strategies/dpop.strategy';
import { AccessRules } from './access-rules';
import { ProtectedResources } from '../protected-resources';
import { AUTH_GUARDS } from './auth-guards';
import { GuardedRoutesController } from '../../../test/helpers/guarded-routes';
import { ownPassportStrategies } from '../../../test/helpers/passport';

const METADATA = 'resource_metadata="http://localhost/.well-known/oauth-protected-resource/api/public/v1"';


const GOOD_TOKEN = 'sp_at_' + 'A'.repeat(43);
const OTHER_TOKEN = 'sp_at_' + 'B'.repeat(43);
const grant: AccessTokenGrant = { tokenId: 9, userId: 7, clientId: 5, scopes: ['read:startups'], expiresAt: Date.now() + 60_000, jkt: null, audience: null };
const BOUND_TOKEN = 'sp_at_' + 'C'.repeat(43);
const boundGrant: AccessTokenGrant = { ...grant, tokenId: 10, jkt: 'thumbprint' };
const partnerKey: ApiKeyIdentity = { id: 3, name: 'k', tier: 'partner' };

interface Options {
  tokens?: Record<string, AccessTokenGrant>;
  keys?: Record<string, ApiKeyIdentity>;
  allowed?: boolean;
  lookupFails?: boolean;
}

/**
 * The real pipeline (the guards of AUTH_GUARDS, in their order, run as Nest runs global guards), strategies
 * and Passport; the look-ups and the limiter are stand-ins.
 */
async function setup(options: Options = {}) {
  const tokens = options.tokens ?? { [GOOD_TOKEN]: grant, [BOUND_TOKEN]: boundGrant };
  const keys = options.keys ?? { sp_key_partner: partnerKey };
  const find = jest.fn(async (token: string) => {
    if (options.lookupFails) throw new Error('connect ECONNREFUSED');
    return tokens[token] ?? null;
  });
  const authenticate = jest.fn(async (key: string) => keys[key] ?? null);
  const enforce = jest.fn(async (_reply: unknown, _key: string, limit: number) => {
    if (options.allowed === false) throw new AppError('RATE_LIMITED');
    return { limit, remaining: limit - 1, resetSeconds: 60, allowed: true };
  });
  // The DPoP service stands for RFC 9449's checks (src/auth/dpop/*.spec.ts): here it accepts the bound token.
  const resource = jest.fn(async (request: { headers: Record<string, string> }) =>
    request.headers.authorization.toLowerCase() === `dpop ${BOUND_TOKEN}`.toLowerCase() && request.headers.dpop === 'good-proof'
      ? { kind: 'valid', grant: boundGrant }
      : { kind: 'invalid', error: 'invalid_dpop_proof', description: 'bad', challenge: DpopChallenge.invalidProof },
  );
  const reflector = new Reflector();
  const getAllAndOverride = jest.spyOn(reflector, 'getAllAndOverride');
  const moduleRef = await Test.createTestingModule({
    providers: [
      ...AUTH_GUARDS,
      AccessRules,
      { provide: ProtectedResources, useValue: new ProtectedResources({ publicUrl: 'http://localhost' } as never) },
      BearerStrategy,
      DpopStrategy,
      ApiKeyStrategy,
      AccessTokenLookupService,
      DpopService,
      ApiKeysService,
      RateLimitService,
      Reflector,
    ],
  })
    .overrideProvider(DpopService)
    .useValue({ resource })
    .overrideProvider(AccessTokenLookupService)
    .useValue({ find })
    .overrideProvider(ApiKeysService)
    .useValue({ authenticate })
    .overrideProvider(RateLimitService)
    .useValue({ enforce, limits: { anonymous: 1, standard: 2, partner: 3, client: 4 } })
    .overrideProvider(Reflector)
    .useValue(reflector)
    .compile();
  // The Fastify instance the requests of this application come through (see ownPassportStrategies).
  const server = {};
  ownPassportStrategies(moduleRef, server);
  const guards = AUTH_GUARDS.map((guard) => moduleRef.get<{ canActivate(context: ExecutionContextHost): unknown }>(guard));
  // As Nest's GuardsConsumer: each guard in turn, until one refuses or throws.
  const sut = {
    async canActivate(context: ExecutionContextHost): Promise<boolean> {
      for (const guard of guards) if (!(await guard.canActivate(context))) return false;
      return true;
    },
  };

  const reply = {};
  const call = (handler: keyof GuardedRoutesController, headers: Record<string, string | string[]> = {}, extra: Record<string, unknown> = {}) => {
    const request: Record<string, unknown> = { headers, raw: { headers, ...extra }, ip: '198.51.100.7', server, ...extra };
    const context = new ExecutionContextHost([request, reply], GuardedRoutesController, GuardedRoutesController.prototype[handler]);
    context.setType('http');
    return { request, result: sut.canActivate(context).then(() => 'allowed', (error: AppError) => error) };
  };
  return { sut, call, enforce, find, authenticate, getAllAndOverride, resource };
}

describe('the access pipeline: authentication, rate limit, scopes (AUTH_GUARDS)', () => {
  it('lets public routes through without credentials or counting', async () => {
    const { call, enforce } = await setup();
    expect(await call('open', { authorization: 'Bearer nonsense', 'x-api-key': 'nonsense' }).result).toBe('allowed');
    expect(enforce).not.toHaveBeenCalled();
  });

  it('reads a route’s access rule once, not on every request', async () => {
    const { call, getAllAndOverride } = await setup();
    for (let i = 0; i < 5; i++) await call('startups', { authorization: `Bearer ${GOOD_TOKEN}` }).result;
    expect(getAllAndOverride).toHaveBeenCalledTimes(1);
  });

  it('requires a Bearer token on a route that declares nothing (secure by default), without running Passport for no header', async () => {
    const { call, find } = await setup();
    const error = (await call('undeclared').result) as AppError;
    expect([error.code, error.headers]).toEqual(['UNAUTHORIZED', { 'www-authenticate': `Bearer realm="api", ${METADATA}` }]);
    expect(find).not.toHaveBeenCalled();
  });

  it('charges anonymous callers per IP, and a valid key per key at its tier', async () => {
    const anonymous = await setup();
    const a = anonymous.call('keyed');
    expect(await a.result).toBe('allowed');
    expect(anonymous.enforce).toHaveBeenCalledWith({}, 'ip:198.51.100.7', 1);
    expect(a.request.principal).toEqual({ scopes: [] });
    expect(anonymous.authenticate).not.toHaveBeenCalled();

    const keyed = await setup();
    const k = keyed.call('keyed', { 'x-api-key': 'sp_key_partner' });
    expect(await k.result).toBe('allowed');
    expect(keyed.enforce).toHaveBeenCalledWith({}, 'key:3', 3);
    expect(k.request.principal).toEqual({ scopes: [], apiKey: partnerKey });
  });

  it.each([['sp_key_unknown'], [''], [['sp_key_partner', 'sp_key_partner']]])('refuses the key %j after counting it against the IP', async (key) => {
    const { call, enforce } = await setup();
    expect(((await call('keyed', { 'x-api-key': key }).result) as AppError).code).toBe('INVALID_API_KEY');
    expect(enforce).toHaveBeenCalledWith({}, 'ip:198.51.100.7', 1);
  });

  it('answers 429 before revealing whether credentials were good', async () => {
    const { call } = await setup({ allowed: false });
    expect(((await call('keyed', { 'x-api-key': 'sp_key_unknown' }).result) as AppError).code).toBe('RATE_LIMITED');
    expect(((await call('startups', { authorization: 'Bearer sp_at_unknown' }).result) as AppError).code).toBe('RATE_LIMITED');
  });

  it('charges Bearer calls to the token’s client (the scheme in any case) and exposes the principal', async () => {
    const { call, enforce } = await setup({ keys: { sp_key_standard: { id: 3, name: 'k', tier: 'standard' } } });
    const r = call('startups', { authorization: `bEaReR ${GOOD_TOKEN}`, 'x-api-key': 'sp_key_standard' });
    expect(await r.result).toBe('allowed');
    expect(enforce).toHaveBeenCalledTimes(1);
    expect(enforce).toHaveBeenCalledWith({}, 'client:5', 4, 1);
    expect(r.request.principal).toEqual({ userId: 7, clientId: 5, tokenId: 9, scopes: ['read:startups'], audience: 'http://localhost/api/public/v1', apiKey: { id: 3, name: 'k', tier: 'standard' } });
  });

  it.each([
    [`Basic ${Buffer.from('a:b').toString('base64')}`, `Bearer realm="api", ${METADATA}`],
    ['Basic', `Bearer realm="api", ${METADATA}`],
    ['Digest a=b', `Bearer realm="api", ${METADATA}`],
    ['Bearer', `Bearer realm="api", error="invalid_token", ${METADATA}`],
    ['Bearer a b', `Bearer realm="api", error="invalid_token", ${METADATA}`],
    [`Bearer  ${GOOD_TOKEN}`, `Bearer realm="api", error="invalid_token", ${METADATA}`],
    ['Bearer sp_at_unknown', `Bearer realm="api", error="invalid_token", ${METADATA}`],
  ])('answers Authorization: %j 401 with the challenge %j, charged to the IP', async (authorization, challenge) => {
    const { call, enforce } = await setup();
    const error = (await call('startups', { authorization }).result) as AppError;
    expect([error.code, error.headers]).toEqual(['UNAUTHORIZED', { 'www-authenticate': challenge }]);
    expect(enforce).toHaveBeenCalledWith({}, 'ip:198.51.100.7', 1);
  });

  it.each([[{ query: { access_token: GOOD_TOKEN } }], [{ body: { access_token: GOOD_TOKEN } }]])(
    'reads the token from the Authorization header only, never from the query or the body (RFC 6750 §2.1): %j',
    async (elsewhere) => {
      const { call, find } = await setup();
      const error = (await call('startups', { authorization: 'Basic YTpi' }, elsewhere).result) as AppError;
      expect([error.code, error.headers]).toEqual(['UNAUTHORIZED', { 'www-authenticate': `Bearer realm="api", ${METADATA}` }]);
      expect(find).not.toHaveBeenCalled();
    },
  );

  it.each([
    ['sp_at_unknown', { query: { access_token: GOOD_TOKEN }, body: { access_token: GOOD_TOKEN } }],
    [GOOD_TOKEN, { query: { access_token: GOOD_TOKEN } }],
    [GOOD_TOKEN, { body: { access_token: GOOD_TOKEN } }],
  ])('refuses a Bearer header (%j) with an access_token in the query or the body too, one method per request (RFC 6750 §2), looking nothing up', async (token, elsewhere) => {
    const { call, find } = await setup();
    const error = (await call('startups', { authorization: `Bearer ${token}` }, elsewhere).result) as AppError;
    expect([error.code, error.headers]).toEqual(['UNAUTHORIZED', { 'www-authenticate': `Bearer realm="api", error="invalid_token", ${METADATA}` }]);
    expect(find).not.toHaveBeenCalled();
  });

  it('passes a failed look-up on (503 from the filter) instead of answering 401', async () => {
    const { call } = await setup({ lookupFails: true });
    expect(((await call('startups', { authorization: `Bearer ${GOOD_TOKEN}` }).result) as Error).message).toBe('connect ECONNREFUSED');
  });

  it('refuses an invalid key beside a valid token', async () => {
    const { call } = await setup();
    expect(((await call('startups', { authorization: `Bearer ${GOOD_TOKEN}`, 'x-api-key': 'sp_key_unknown' }).result) as AppError).code).toBe('INVALID_API_KEY');
  });

  it('answers a token without the scope 403 naming the scope', async () => {
    const { call } = await setup({ tokens: { [GOOD_TOKEN]: { ...grant, scopes: ['profile'] } } });
    const error = (await call('startups', { authorization: `Bearer ${GOOD_TOKEN}` }).result) as AppError;
    expect([error.code, error.headers]).toEqual(['INSUFFICIENT_SCOPE', { 'www-authenticate': `Bearer realm="api", error="insufficient_scope", scope="read:startups", ${METADATA}` }]);
  });

  it('verifies each application’s requests with its own strategies in a test process, though Passport keeps one per name (test/helpers/passport.ts)', async () => {
    const first = await setup({ tokens: { [GOOD_TOKEN]: grant }, keys: { sp_key_first: partnerKey } });
    const second = await setup({ tokens: { [OTHER_TOKEN]: { ...grant, clientId: 6 } }, keys: {} });
    expect(await first.call('startups', { authorization: `Bearer ${GOOD_TOKEN}`, 'x-api-key': 'sp_key_first' }).result).toBe('allowed');
    expect(((await first.call('startups', { authorization: `Bearer ${OTHER_TOKEN}` }).result) as AppError).code).toBe('UNAUTHORIZED');
    expect(await second.call('startups', { authorization: `Bearer ${OTHER_TOKEN}` }).result).toBe('allowed');
    // Each look-up served only its own application's requests.
    expect(first.find.mock.calls).toEqual([[GOOD_TOKEN], [OTHER_TOKEN]]);
    expect(second.find.mock.calls).toEqual([[OTHER_TOKEN]]);
    expect(second.authenticate).not.toHaveBeenCalled();
  });

  it('refuses a DPoP-bound token sent as Bearer with the DPoP challenge (RFC 9449 §7.2), charged like any failure', async () => {
    const { call, enforce, resource } = await setup();
    const error = (await call('startups', { authorization: `Bearer ${BOUND_TOKEN}` }).result) as AppError;
    expect([error.code, error.headers]).toEqual(['UNAUTHORIZED', { 'www-authenticate': `${DpopChallenge.invalidToken}, ${METADATA}` }]);
    expect(enforce).toHaveBeenCalledWith({}, 'ip:198.51.100.7', 1);
    expect(resource).not.toHaveBeenCalled();
  });

  it('sends the DPoP scheme, in any case, to the dpop strategy only, and Bearer never to it', async () => {
    const { call, enforce, find, resource } = await setup();
    const r = call('startups', { authorization: `dPoP ${BOUND_TOKEN}`, dpop: 'good-proof' });
    expect(await r.result).toBe('allowed');
    expect(r.request.principal).toEqual({ userId: 7, clientId: 5, tokenId: 10, scopes: ['read:startups'], audience: 'http://localhost/api/public/v1' });
    expect(enforce).toHaveBeenCalledWith({}, 'client:5', 4, 1);
    expect(find).not.toHaveBeenCalled();

    const bad = (await call('startups', { authorization: `dpop ${BOUND_TOKEN}`, dpop: 'replayed' }).result) as AppError;
    expect([bad.code, bad.headers]).toEqual(['UNAUTHORIZED', { 'www-authenticate': `${DpopChallenge.invalidProof}, ${METADATA}` }]);
    expect(resource).toHaveBeenCalledTimes(2);

    await call('startups', { authorization: `Bearer ${GOOD_TOKEN}` }).result;
    expect(resource).toHaveBeenCalledTimes(2);
  });
});
