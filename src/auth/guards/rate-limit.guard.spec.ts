import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { AppError } from '../../common/errors/app-error';
import type { RateLimitService } from '../../rate-limit/rate-limit.service';
import { Authentication } from '../authentication';
import { AccessTokenGrant } from '../principal';
import { AccessRules } from './access-rules';
import { RateLimitGuard } from './rate-limit.guard';
import { GuardedRoutesController } from '../../../test/helpers/guarded-routes';


const grant: AccessTokenGrant = { tokenId: 9, userId: 7, clientId: 5, scopes: [], expiresAt: Date.now() + 60_000, jkt: null, audience: null };
const partner = { id: 3, name: 'k', tier: 'partner' as const };
const standard = { id: 4, name: 'k', tier: 'standard' as const };

/** RateLimitGuard alone, on what the authentication guards would have recorded. */
async function charged(handler: keyof GuardedRoutesController, authentication?: Authentication) {
  const enforce = jest.fn(async () => ({}));
  const rateLimit = { enforce, limits: { anonymous: 1, standard: 2, partner: 3, client: 4 } } as unknown as RateLimitService;
  const sut = new RateLimitGuard(new AccessRules(new Reflector()), rateLimit);
  const reply = {};
  const context = new ExecutionContextHost([{ authentication, ip: '198.51.100.7' }, reply], GuardedRoutesController, GuardedRoutesController.prototype[handler]);
  context.setType('http');
  expect(await sut.canActivate(context)).toBe(true);
  return enforce.mock.calls;
}

describe('RateLimitGuard', () => {
  it('counts nothing on public routes', async () => {
    expect(await charged('open')).toEqual([]);
  });

  it('charges a valid token to its client, a key sent beside it or not', async () => {
    expect(await charged('startups', { grant, apiKey: partner })).toEqual([[{}, 'client:5', 4, 1]]);
    expect(await charged('startups', { grant, apiKeyRefusal: new AppError('INVALID_API_KEY') })).toEqual([[{}, 'client:5', 4, 1]]);
  });

  it('charges a valid key, without a valid token, to the key at its tier', async () => {
    expect(await charged('keyed', { apiKey: partner })).toEqual([[{}, 'key:3', 3]]);
    expect(await charged('startups', { apiKey: standard, tokenRefusal: new AppError('UNAUTHORIZED') })).toEqual([[{}, 'key:4', 2]]);
  });

  it('charges anything else, refused credentials included, to the IP', async () => {
    expect(await charged('keyed')).toEqual([[{}, 'ip:198.51.100.7', 1]]);
    expect(await charged('keyed', { apiKeyRefusal: new AppError('INVALID_API_KEY') })).toEqual([[{}, 'ip:198.51.100.7', 1]]);
    expect(await charged('startups', { tokenRefusal: new AppError('UNAUTHORIZED') })).toEqual([[{}, 'ip:198.51.100.7', 1]]);
  });
});
