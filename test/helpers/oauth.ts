import { randomBytes } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { ClientsService } from '../../src/clients/clients.service';
import { UsersService } from '../../src/users/users.service';
import { assertConformsToOpenApi } from './openapi-conformance';
import { TestApp } from './test-app';

export interface OAuthTestUser {
  id: number;
  email: string;
  password: string;
}

export interface OAuthTestClient {
  /** `oauth_clients.id` */
  id: number;
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
  name: string;
}

/** A user who can sign in, created through the real UsersService. */
export async function createSignInUser(app: INestApplication, email?: string): Promise<OAuthTestUser> {
  const suffix = randomBytes(4).toString('hex');
  const password = `pw-${suffix}-correct horse`;
  const user = await app.get(UsersService, { strict: false }).create({ email: email ?? `ada-${suffix}@example.com`, name: `Ada ${suffix}`, password });
  return { id: user.id, email: user.email, password };
}

/** A client registered through ClientsService, as `cli clients:create` does. */
export async function registerClient(
  app: INestApplication,
  options: { type?: 'confidential' | 'public'; redirectUris?: string[]; scopes?: string[]; name?: string; idTokenSignedResponseAlg?: 'RS256' | 'ES256'; deviceFlow?: boolean } = {},
): Promise<OAuthTestClient> {
  const redirectUris = options.redirectUris ?? ['http://127.0.0.1:9/callback'];
  const name = options.name ?? `Test App ${randomBytes(2).toString('hex')}`;
  const { client, secret } = await app.get(ClientsService, { strict: false }).create({
    name,
    type: options.type ?? 'confidential',
    redirectUris,
    scopes: options.scopes ?? ['profile', 'read:startups'],
    idTokenSignedResponseAlg: options.idTokenSignedResponseAlg,
    deviceFlow: options.deviceFlow,
  });
  return { id: client.id, clientId: client.clientId, clientSecret: secret, redirectUri: redirectUris[0], name };
}

/** The hidden inputs of an HTML form, by name, with HTML entities decoded. */
export function hiddenInputs(html: string): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const match of html.matchAll(/<input\b[^>]*>/g)) {
    const tag = match[0];
    if (!/\btype="hidden"/.test(tag)) continue;
    const name = /\bname="([^"]*)"/.exec(tag)?.[1];
    const value = /\bvalue="([^"]*)"/.exec(tag)?.[1];
    if (name !== undefined) inputs[name] = decodeEntities(value ?? '');
  }
  return inputs;
}

function decodeEntities(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
}

export interface BrowserResponse {
  status: number;
  headers: Headers;
  text: string;
  location?: string;
}

/**
 * A minimal browser over fetch: a cookie jar (name=value, no attributes needed here), manual
 * redirects, and the Origin / Sec-Fetch-Site headers a browser sends on a same-origin form post.
 */
export class BrowserSession {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly base: string,
    readonly language = 'en',
  ) {}

  async get(pathOrUrl: string, headers: Record<string, string> = {}): Promise<BrowserResponse> {
    return this.request(pathOrUrl, { method: 'GET', headers });
  }

  /** A form post; a field given as an array is sent once per value, as checkboxes are. */
  async post(path: string, form: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<BrowserResponse> {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form)) for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
    return this.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.base, 'sec-fetch-site': 'same-origin', ...headers },
      body: body.toString(),
    });
  }

  private async request(pathOrUrl: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<BrowserResponse> {
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : this.base + pathOrUrl;
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, {
      method: init.method,
      redirect: 'manual',
      headers: { 'accept-language': this.language, ...(cookie ? { cookie } : {}), ...init.headers },
      body: init.body,
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const eq = pair.indexOf('=');
      const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
      // A cleared cookie (empty, or already expired) is dropped, as a browser drops it.
      if (value === '' || /;\s*max-age=0(;|$)/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    assertConformsToOpenApi(init.method, url, response.status, response.headers, text);
    return { status: response.status, headers: response.headers, text, location: response.headers.get('location') ?? undefined };
  }
}

export function authorizePath(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.append(k, v);
  return `/oauth/authorize?${query.toString()}`;
}

/**
 * Runs the browser part of the code flow over HTTP: authorize, sign in (when asked), decide on the
 * consent page (when shown). Resolves with the redirect back to the client.
 */
export async function runAuthorization(
  browser: BrowserSession,
  url: string,
  user: { email: string; password: string },
  decision: 'approve' | 'deny' = 'approve',
): Promise<URL> {
  let response = await browser.get(url);
  // A redirect answering the GET is a 302; answering a form post it is a 303 (RFC 9700 §4.12).
  let expected = 302;
  if (response.status === 200 && response.text.includes('name="password"')) {
    response = await browser.post('/oauth/sign-in', { ...hiddenInputs(response.text), email: user.email, password: user.password });
    expected = 303;
  }
  if (response.status === 200 && response.text.includes('name="decision"')) {
    response = await browser.post('/oauth/consent', { ...hiddenInputs(response.text), decision });
    expected = 303;
  }
  if (response.status !== expected || !response.location) throw new Error(`expected a ${expected} redirect to the client, got ${response.status}: ${response.text.slice(0, 300)}`);
  return new URL(response.location);
}

export function basicAuth(clientId: string, secret: string): string {
  const encode = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;
}

/** RFC 9728 §5.1: the parameter every challenge of the public API ends with, naming its metadata. */
export function apiResourceMetadata(base: string): string {
  return `resource_metadata="${base}/.well-known/oauth-protected-resource/api/public/v1"`;
}

export type { TestApp };
