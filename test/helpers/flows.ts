import { randomBytes } from 'node:crypto';
import { s256Challenge } from '../../src/oauth/pkce';
import { http, HttpResponse } from './http';
import { authorizePath, basicAuth, BrowserSession, runAuthorization } from './oauth';
import { runCli } from './processes';

/**
 * The OAuth flow as an outside party drives it, for the process-level suites (a built service, no
 * access to its Nest container): the user and the client come from the CLI, everything else over HTTP.
 */
export interface Provisioned {
  user: { email: string; password: string };
  client: { clientId: string; clientSecret: string; redirectUri: string };
}

export const REDIRECT_URI = 'https://app.example/cb';

/** A user and a confidential client, created with the CLI against the storage `env` points at. */
export async function provision(env: Record<string, string>): Promise<Provisioned> {
  const suffix = randomBytes(4).toString('hex');
  const user = { email: `rel-${suffix}@example.com`, password: `pw-${suffix}-correct horse battery` };
  const created = await runCli(['users:create', '--email', user.email, '--name', `Rel ${suffix}`, '--password', user.password, '--json'], env);
  if (created.status !== 0) throw new Error(`users:create failed: ${created.stderr}`);
  const client = await runCli(['clients:create', '--name', `Reliability ${suffix}`, '--redirect-uri', REDIRECT_URI, '--scopes', 'profile read:startups', '--json'], env);
  if (client.status !== 0) throw new Error(`clients:create failed: ${client.stderr}`);
  return { user, client: { clientId: client.json.client_id, clientSecret: client.json.client_secret, redirectUri: REDIRECT_URI } };
}

export const VERIFIER = 'v'.repeat(20) + randomBytes(24).toString('base64url');

/** Signs in and approves in `browser` (its cookies are kept), and returns the code the client receives. */
export async function authorizationCode(browser: BrowserSession, p: Provisioned, scope = 'profile read:startups'): Promise<string> {
  const url = authorizePath({
    response_type: 'code',
    client_id: p.client.clientId,
    redirect_uri: p.client.redirectUri,
    scope,
    state: randomBytes(8).toString('hex'),
    code_challenge: s256Challenge(VERIFIER),
    code_challenge_method: 'S256',
  });
  const back = await runAuthorization(browser, url, p.user);
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`no code in ${back.toString()}`);
  return code;
}

function tokenRequest(base: string, p: Provisioned, form: Record<string, string>, path = '/oauth/token'): Promise<HttpResponse> {
  return http(base, path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(p.client.clientId, p.client.clientSecret) },
    body: new URLSearchParams(form).toString(),
    signal: AbortSignal.timeout(30_000),
  });
}

export function redeem(base: string, p: Provisioned, code: string): Promise<HttpResponse> {
  return tokenRequest(base, p, { grant_type: 'authorization_code', code, redirect_uri: p.client.redirectUri, code_verifier: VERIFIER });
}

export function refresh(base: string, p: Provisioned, refreshToken: string): Promise<HttpResponse> {
  return tokenRequest(base, p, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

export function introspect(base: string, p: Provisioned, token: string): Promise<HttpResponse> {
  return tokenRequest(base, p, { token }, '/oauth/introspect');
}

export function revoke(base: string, p: Provisioned, token: string): Promise<HttpResponse> {
  return tokenRequest(base, p, { token }, '/oauth/revoke');
}

/** A fresh code redeemed for a token pair (the body of the 200). */
export async function tokens(base: string, p: Provisioned, browser = new BrowserSession(base)): Promise<{ access_token: string; refresh_token: string }> {
  const res = await redeem(base, p, await authorizationCode(browser, p));
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
  return res.body;
}

export function me(base: string, accessToken: string): Promise<HttpResponse> {
  return http(base, '/api/public/v1/me', { headers: { authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(30_000) });
}
