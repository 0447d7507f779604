import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { AppError } from '../../common/errors/app-error';
import { Authentication } from '../authentication';
import { AccessTokenGrant } from '../principal';
import { ProtectedResources } from '../protected-resources';
import { AccessRules } from './access-rules';
import { ScopesGuard } from './scopes.guard';
import { GuardedRoutesController } from '../../../test/helpers/guarded-routes';


const grant: AccessTokenGrant = { tokenId: 9, userId: 7, clientId: 5, scopes: ['read:startups'], expiresAt: Date.now() + 60_000, jkt: null, audience: null };
const key = { id: 3, name: 'k', tier: 'standard' as const };
const resources = new ProtectedResources({ publicUrl: 'https://platform.example' } as never);
const METADATA = 'resource_metadata="https://platform.example/.well-known/oauth-protected-resource/api/public/v1"';
const tokenRefusal = new AppError('UNAUTHORIZED', { headers: { 'www-authenticate': resources.apiChallenges.invalidToken } });
const apiKeyRefusal = new AppError('INVALID_API_KEY');

/** ScopesGuard alone, on what the authentication guards would have recorded. */
function call(handler: keyof GuardedRoutesController, authentication?: Authentication) {
  const sut = new ScopesGuard(new AccessRules(new Reflector()), resources);
  const request: { authentication?: Authentication; principal?: unknown } = { authentication };
  const context = new ExecutionContextHost([request, {}], GuardedRoutesController, GuardedRoutesController.prototype[handler]);
  context.setType('http');
  try {
    sut.canActivate(context);
    return { request, outcome: 'allowed' as const };
  } catch (error) {
    return { request, outcome: error as AppError };
  }
}

describe('ScopesGuard', () => {
  it('lets public routes through whatever was recorded', () => {
    expect(call('open', { tokenRefusal, apiKeyRefusal }).outcome).toBe('allowed');
  });

  it('answers no Bearer credentials with the bare challenge, and a refused token with its own error', () => {
    const missing = call('startups').outcome as AppError;
    expect([missing.code, missing.headers]).toEqual(['UNAUTHORIZED', { 'www-authenticate': `Bearer realm="api", ${METADATA}` }]);
    expect(call('startups', { tokenRefusal, apiKeyRefusal }).outcome).toBe(tokenRefusal);
  });

  it('refuses a bad key beside a valid token, before looking at the scopes', () => {
    expect(call('startups', { grant: { ...grant, scopes: [] }, apiKeyRefusal }).outcome).toBe(apiKeyRefusal);
  });

  it('answers a token without the scope 403 naming it (RFC 6750 §3.1), and sets the principal otherwise', () => {
    const error = call('startups', { grant: { ...grant, scopes: ['profile'] } }).outcome as AppError;
    expect([error.code, error.headers]).toEqual(['INSUFFICIENT_SCOPE', { 'www-authenticate': `Bearer realm="api", error="insufficient_scope", scope="read:startups", ${METADATA}` }]);
    const { request, outcome } = call('startups', { grant, apiKey: key });
    expect(outcome).toBe('allowed');
    expect(request.principal).toEqual({ userId: 7, clientId: 5, tokenId: 9, scopes: ['read:startups'], audience: 'https://platform.example/api/public/v1', apiKey: key });
  });

  it('at /mcp, answers with the MCP endpoint\'s challenges, and adds the scopes the route reads from the request', () => {
    const sut = new ScopesGuard({ of: () => ({ kind: 'bearer', scopes: [], scopesOf: (r: { body?: unknown }) => (r.body === 'call' ? ['read:startups'] : []) }) } as never, resources);
    const run = (request: object) => {
      const context = new ExecutionContextHost([request, {}], GuardedRoutesController, GuardedRoutesController.prototype.startups);
      context.setType('http');
      try {
        return sut.canActivate(context);
      } catch (error) {
        return error as AppError;
      }
    };
    const mcpMetadata = 'resource_metadata="https://platform.example/.well-known/oauth-protected-resource/mcp"';
    expect((run({ url: '/mcp', routeOptions: { url: '/mcp' } }) as AppError).headers).toEqual({ 'www-authenticate': `Bearer realm="mcp", ${mcpMetadata}` });
    const narrow = { grant: { ...grant, scopes: ['profile'] } };
    expect(run({ url: '/mcp', routeOptions: { url: '/mcp' }, authentication: narrow, body: 'list' })).toBe(true);
    const refused = run({ url: '/mcp', routeOptions: { url: '/mcp' }, authentication: narrow, body: 'call' }) as AppError;
    expect([refused.code, refused.headers]).toEqual(['INSUFFICIENT_SCOPE', { 'www-authenticate': `Bearer realm="mcp", error="insufficient_scope", scope="read:startups", ${mcpMetadata}` }]);
    expect(run({ url: '/mcp', routeOptions: { url: '/mcp' }, authentication: { grant }, body: 'call' })).toBe(true);
  });

  it('admits anyone on an optional-key route unless the key sent was refused', () => {
    expect(call('keyed').request.principal).toEqual({ scopes: [] });
    expect(call('keyed', { apiKey: key }).request.principal).toEqual({ scopes: [], apiKey: key });
    expect(call('keyed', { apiKeyRefusal }).outcome).toBe(apiKeyRefusal);
    expect(call('keyed', { tokenRefusal }).outcome).toBe('allowed');
  });
});
