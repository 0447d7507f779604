import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError } from '../../common/errors/app-error';
import { RateLimitService } from '../../rate-limit/rate-limit.service';
import { OptionalApiKey } from '../decorators/optional-api-key.decorator';
import { Public } from '../decorators/public.decorator';
import { Scopes } from '../decorators/scopes.decorator';
import { ApiKeyOutcome, ApiKeyStrategy } from '../strategies/api-key.strategy';
import { BearerOutcome, BearerTokenStrategy } from '../strategies/bearer-token.strategy';
import { AccessGuard } from './access.guard';

class Routes {
  @Public()
  open() {}

  @OptionalApiKey()
  keyed() {}

  @Scopes('read:startups')
  startups() {}

  undeclared() {}
}

const grant = { tokenId: 9, userId: 7, clientId: 5, scopes: ['read:startups'], expiresAt: Date.now() + 60_000 };

function setup(options: { token?: BearerOutcome; key?: ApiKeyOutcome; allowed?: boolean } = {}) {
  const token = options.token ?? { kind: 'missing', challenge: 'Bearer realm="api"' };
  const key = options.key ?? { kind: 'absent' };
  const bearer = { authenticate: jest.fn(async () => token) };
  const apiKeys = { authenticate: jest.fn(async () => key) };
  const enforce = jest.fn(async (_reply: unknown, _key: string, limit: number) => {
    if (options.allowed === false) throw new AppError('RATE_LIMITED');
    return { limit, remaining: limit - 1, resetSeconds: 60, allowed: true };
  });
  const rateLimit = { enforce, limits: { anonymous: 1, standard: 2, partner: 3, client: 4 } };
  const reflector = new Reflector();
  const getAllAndOverride = jest.spyOn(reflector, 'getAllAndOverride');
  const sut = new AccessGuard(
    reflector,
    apiKeys as unknown as ApiKeyStrategy,
    bearer as unknown as BearerTokenStrategy,
    rateLimit as unknown as RateLimitService,
  );
  const request: Record<string, unknown> = { headers: {}, ip: '198.51.100.7' };
  const context = (handler: keyof Routes) =>
    ({
      getType: () => 'http',
      getHandler: () => Routes.prototype[handler],
      getClass: () => Routes,
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => ({}) }),
    }) as unknown as ExecutionContext;
  return { sut, context, request, enforce, bearer, apiKeys, getAllAndOverride };
}

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'allowed', (error: AppError) => error.code);

describe('AccessGuard', () => {
  it('lets public routes through without credentials or counting', async () => {
    const { sut, context, enforce } = setup();
    expect(await sut.canActivate(context('open'))).toBe(true);
    expect(enforce).not.toHaveBeenCalled();
  });

  it('reads a route’s access rule once, not on every request', async () => {
    const { sut, context, getAllAndOverride } = setup({ token: { kind: 'valid', grant } });
    for (let i = 0; i < 5; i++) await sut.canActivate(context('startups'));
    expect(getAllAndOverride).toHaveBeenCalledTimes(1);
  });

  it('requires a Bearer token on a route that declares nothing (secure by default)', async () => {
    const { sut, context } = setup();
    expect(await codeOf(sut.canActivate(context('undeclared')))).toBe('UNAUTHORIZED');
  });

  it('charges anonymous callers per IP, and a valid key per key at its tier', async () => {
    const anonymous = setup();
    await anonymous.sut.canActivate(anonymous.context('keyed'));
    expect(anonymous.enforce).toHaveBeenCalledWith({}, 'ip:198.51.100.7', 1);
    expect(anonymous.request.principal).toEqual({ scopes: [] });

    const keyed = setup({ key: { kind: 'valid', key: { id: 3, name: 'k', tier: 'partner' } } });
    await keyed.sut.canActivate(keyed.context('keyed'));
    expect(keyed.enforce).toHaveBeenCalledWith({}, 'key:3', 3);
    expect(keyed.request.principal).toEqual({ scopes: [], apiKey: { id: 3, name: 'k', tier: 'partner' } });
  });

  it('refuses an invalid key after counting it against the IP', async () => {
    const { sut, context, enforce } = setup({ key: { kind: 'invalid' } });
    expect(await codeOf(sut.canActivate(context('keyed')))).toBe('INVALID_API_KEY');
    expect(enforce).toHaveBeenCalledWith({}, 'ip:198.51.100.7', 1);
  });

  it('answers 429 before revealing whether credentials were good', async () => {
    const { sut, context } = setup({ key: { kind: 'invalid' }, allowed: false });
    expect(await codeOf(sut.canActivate(context('keyed')))).toBe('RATE_LIMITED');
  });

  it('charges Bearer calls to the token’s client and exposes the principal', async () => {
    const { sut, context, enforce, request } = setup({ token: { kind: 'valid', grant }, key: { kind: 'valid', key: { id: 3, name: 'k', tier: 'standard' } } });
    expect(await sut.canActivate(context('startups'))).toBe(true);
    expect(enforce).toHaveBeenCalledTimes(1);
    expect(enforce).toHaveBeenCalledWith({}, 'client:5', 4);
    expect(request.principal).toEqual({ userId: 7, clientId: 5, tokenId: 9, scopes: ['read:startups'], apiKey: { id: 3, name: 'k', tier: 'standard' } });
  });

  it('puts the strategy’s challenge on a 401', async () => {
    const { sut, context } = setup({ token: { kind: 'invalid', challenge: 'Bearer realm="api", error="invalid_token"' } });
    const error = (await sut.canActivate(context('startups')).catch((e: AppError) => e)) as AppError;
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.headers).toEqual({ 'www-authenticate': 'Bearer realm="api", error="invalid_token"' });
  });

  it('refuses an invalid key beside a valid token', async () => {
    const { sut, context } = setup({ token: { kind: 'valid', grant }, key: { kind: 'invalid' } });
    expect(await codeOf(sut.canActivate(context('startups')))).toBe('INVALID_API_KEY');
  });

  it('answers a token without the scope 403 naming the scope', async () => {
    const { sut, context } = setup({ token: { kind: 'valid', grant: { ...grant, scopes: ['profile'] } } });
    const error = (await sut.canActivate(context('startups')).catch((e: AppError) => e)) as AppError;
    expect(error.code).toBe('INSUFFICIENT_SCOPE');
    expect(error.headers).toEqual({ 'www-authenticate': 'Bearer realm="api", error="insufficient_scope", scope="read:startups"' });
  });
});
