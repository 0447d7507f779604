/**
 * A thin typed client for the Startup Platform API and its OAuth 2.0 authorization server.
 *
 * Every type comes from `./openapi` (generated from the OpenAPI document by `npm run openapi`), so a
 * change of the API that is not reflected here fails the type-check. It needs only `fetch` and Web
 * Crypto (Node.js 20+, or any browser).
 *
 *   const oauth = new OAuthClient({ issuer, clientId, clientSecret, redirectUri });
 *   const pkce = await createPkce();
 *   const url = oauth.authorizationUrl({ scope: 'profile read:startups', state, codeChallenge: pkce.challenge });
 *   // … the user signs in and approves; your redirect URI receives ?code=…&state=…&iss=…
 *   const tokens = await oauth.exchangeCode({ code: oauth.readCallback(callbackUrl, state), codeVerifier: pkce.verifier });
 *   const api = new StartupPlatformClient({ baseUrl: issuer, accessToken: tokens.access_token });
 *   const { data: me } = await api.get('/api/public/v1/me');
 *
 * Tokens bound to a key (DPoP, RFC 9449): give both clients the same `DpopKey`.
 *
 *   const dpop = await DpopKey.generate();
 *   const oauth = new OAuthClient({ issuer, clientId, redirectUri, dpop });   // token_type "DPoP"
 *   const api = new StartupPlatformClient({ baseUrl: issuer, accessToken: tokens.access_token, dpop });
 */
import type { components, paths } from './openapi';

type Schemas = components['schemas'];
export type Industry = Schemas['IndustryDto'];
export type Startup = Schemas['StartupDto'];
export type Me = Schemas['MeDto'];
export type PageMeta = Schemas['PageMetaDto'];
export type ErrorEnvelope = Schemas['ErrorEnvelopeDto'];
export type TokenResponse = Schemas['TokenResponseDto'];
/** The answer of the grants made for a user (authorization code, refresh), which always carry a refresh token. */
export type UserTokenResponse = TokenResponse & { refresh_token: string };
export type IntrospectionResponse = Schemas['IntrospectionResponseDto'];
export type OAuthErrorBody = Schemas['OAuthErrorDto'];
export type AuthorizationServerMetadata = Schemas['AuthorizationServerMetadataDto'];

/** The paths of the public API (`/api/public/v1/…`) that answer GET. */
export type ApiGetPath = {
  [P in keyof paths]: P extends `/api/public/v1/${string}` ? (paths[P]['get'] extends { responses: unknown } ? P : never) : never;
}[keyof paths];
type GetOperation<P extends ApiGetPath> = paths[P]['get'];
type Parameters<P extends ApiGetPath> = GetOperation<P>['parameters'];
/** The query parameters of a GET path, as documented (names, types, enums). */
export type QueryOf<P extends ApiGetPath> = NonNullable<Parameters<P>['query']>;
/** The path parameters of a GET path (`{ id }` for `/startups/{id}`). */
export type PathParamsOf<P extends ApiGetPath> = NonNullable<Parameters<P>['path']>;
/** The 200 body of a GET path: `{ data }`, with `meta` for lists that page. */
export type ResponseOf<P extends ApiGetPath> = GetOperation<P>['responses'][200]['content']['application/json'];

type GetOptions<P extends ApiGetPath> = ([PathParamsOf<P>] extends [never] ? { params?: never } : { params: PathParamsOf<P> }) & {
  query?: QueryOf<P>;
};

type TokenForm = paths['/oauth/token']['post']['requestBody']['content']['application/x-www-form-urlencoded'];
type TokenInputForm = paths['/oauth/introspect']['post']['requestBody']['content']['application/x-www-form-urlencoded'];

/** A failed call of the public API: the envelope's stable `code`, message and request id. */
export class ApiError extends Error {
  readonly code: string;
  readonly requestId: string;
  readonly details?: ErrorEnvelope['error']['details'];

  constructor(
    readonly status: number,
    readonly body: ErrorEnvelope,
    readonly headers: Headers,
  ) {
    super(`${status} ${body.error.code}: ${body.error.message}`);
    this.name = 'ApiError';
    this.code = body.error.code;
    this.requestId = body.error.requestId;
    this.details = body.error.details;
  }
}

/** A failed call of an OAuth endpoint: the RFC 6749 §5.2 `error` and `error_description`. */
export class OAuthError extends Error {
  readonly error: string;

  constructor(
    readonly status: number,
    readonly body: OAuthErrorBody,
  ) {
    super(`${status} ${body.error}: ${body.error_description}`);
    this.name = 'OAuthError';
    this.error = body.error;
  }
}

/** The authorization request was refused (RFC 6749 §4.1.2.1): `access_denied`, `invalid_scope`, `login_required`… */
export class AuthorizationError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
    this.name = 'AuthorizationError';
  }
}

export interface ApiClientOptions {
  /** Where the service runs, e.g. `http://localhost:3000` (its PUBLIC_URL). */
  baseUrl: string;
  /** An access token, or a function returning the current one (e.g. refreshed). */
  accessToken?: string | (() => string | Promise<string>);
  /** An optional `X-Api-Key` (raises the rate limit). */
  apiKey?: string;
  /** `tr` (default) or `en`: the language of error messages. */
  language?: 'tr' | 'en';
  /** The key a DPoP-bound access token is bound to: the token is sent as `DPoP` with a fresh proof. */
  dpop?: DpopKey;
  fetch?: typeof fetch;
}

/** The public API (`/api/public/v1`), typed from the OpenAPI document. */
export class StartupPlatformClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ApiClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** A typed GET: `get('/api/public/v1/startups/{id}', { params: { id: 42 } })`. Throws `ApiError` on failure. */
  async get<P extends ApiGetPath>(path: P, ...[options]: [PathParamsOf<P>] extends [never] ? [GetOptions<P>?] : [GetOptions<P>]): Promise<ResponseOf<P>> {
    let resolved: string = path;
    for (const [name, value] of Object.entries((options?.params ?? {}) as Record<string, string | number>)) {
      resolved = resolved.replace(`{${name}}`, encodeURIComponent(String(value)));
    }
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries((options?.query ?? {}) as Record<string, unknown>)) {
      if (value !== undefined && value !== null) query.set(name, String(value));
    }
    const search = query.size ? `?${query}` : '';
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.language) headers['accept-language'] = this.options.language;
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    const token = typeof this.options.accessToken === 'function' ? await this.options.accessToken() : this.options.accessToken;
    const url = `${this.options.baseUrl}${resolved}${search}`;
    if (token && this.options.dpop) {
      // RFC 9449 §7.1: the bound token under the DPoP scheme, with a proof of this request and this token.
      headers.authorization = `DPoP ${token}`;
      headers.dpop = await this.options.dpop.proof('GET', url, token);
    } else if (token) {
      headers.authorization = `Bearer ${token}`;
    }
    const response = await this.fetch(url, { headers });
    const body = await response.json();
    if (!response.ok) throw new ApiError(response.status, body as ErrorEnvelope, response.headers);
    return body as ResponseOf<P>;
  }

  me(): Promise<ResponseOf<'/api/public/v1/me'>> {
    return this.get('/api/public/v1/me');
  }

  listStartups(query?: QueryOf<'/api/public/v1/startups'>): Promise<ResponseOf<'/api/public/v1/startups'>> {
    return this.get('/api/public/v1/startups', { query });
  }

  getStartup(id: number): Promise<ResponseOf<'/api/public/v1/startups/{id}'>> {
    return this.get('/api/public/v1/startups/{id}', { params: { id } });
  }

  listIndustries(): Promise<ResponseOf<'/api/public/v1/industries'>> {
    return this.get('/api/public/v1/industries');
  }
}

/** A PKCE pair (RFC 7636): keep `verifier` secret until the token request; send `challenge` (S256). */
export async function createPkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = randomToken(32);
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

/** A random URL-safe value, e.g. for `state`. */
export function randomToken(bytes = 16): string {
  return base64url(globalThis.crypto.getRandomValues(new Uint8Array(bytes)));
}

/**
 * A DPoP key (RFC 9449): an ES256 key pair made with Web Crypto, its private half not extractable. Each
 * request gets its own proof, a JWS over the method, the URI without query or fragment, the time, a
 * random `jti` and, towards the API, the hash of the access token (`ath`).
 */
export class DpopKey {
  private constructor(
    private readonly privateKey: SigningKey,
    /** The public key, as it travels in every proof's header. */
    readonly publicJwk: { kty: string; crv: string; x: string; y: string },
  ) {}

  static async generate(): Promise<DpopKey> {
    const pair = await globalThis.crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    const { kty, crv, x, y } = await globalThis.crypto.subtle.exportKey('jwk', pair.publicKey);
    return new DpopKey(pair.privateKey, { kty: kty!, crv: crv!, x: x!, y: y! });
  }

  /** The `DPoP` header of one request (RFC 9449 §4.2). */
  async proof(method: string, url: string, accessToken?: string): Promise<string> {
    const target = new URL(url);
    target.search = '';
    target.hash = '';
    const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: this.publicJwk };
    const payload: Record<string, string | number> = { jti: randomToken(16), htm: method, htu: target.href, iat: Math.floor(Date.now() / 1000) };
    if (accessToken !== undefined) {
      payload.ath = base64url(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken))));
    }
    const input = `${base64urlJson(header)}.${base64urlJson(payload)}`;
    // Web Crypto's ECDSA signature is r and s side by side, which is the JWS form of ES256 (RFC 7518 §3.4).
    const signature = await globalThis.crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, this.privateKey, new TextEncoder().encode(input));
    return `${input}.${base64url(new Uint8Array(signature))}`;
  }
}

/** Web Crypto's key type, named without the DOM library so that the client compiles for Node and browsers. */
type SigningKey = typeof globalThis.crypto.subtle.sign extends (algorithm: never, key: infer K, data: never) => unknown ? K : never;

function base64urlJson(value: unknown): string {
  return base64url(new TextEncoder().encode(JSON.stringify(value)));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export interface OAuthClientOptions {
  /** The authorization server, i.e. the service's PUBLIC_URL (the `iss` of its responses). */
  issuer: string;
  clientId: string;
  /** For a confidential client (sent with HTTP Basic, `client_secret_basic`); omit for a public client. */
  clientSecret?: string;
  redirectUri: string;
  /** With a key, every token request carries a DPoP proof: the tokens come back bound to it (`token_type: "DPoP"`). */
  dpop?: DpopKey;
  fetch?: typeof fetch;
}

/** The authorization-code flow with PKCE, refresh, revocation and introspection. */
export class OAuthClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: OAuthClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** The RFC 8414 metadata (endpoints, scopes, methods). */
  async discover(): Promise<AuthorizationServerMetadata> {
    const response = await this.fetch(`${this.options.issuer}/.well-known/oauth-authorization-server`);
    if (!response.ok) throw new Error(`discovery failed with ${response.status}`);
    return (await response.json()) as AuthorizationServerMetadata;
  }

  /** Where to send the user's browser (RFC 6749 §4.1.1, PKCE S256). */
  authorizationUrl(request: { scope: string; state: string; codeChallenge: string; prompt?: 'login' | 'consent' | 'none' }): string {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: this.options.clientId,
      redirect_uri: this.options.redirectUri,
      scope: request.scope,
      state: request.state,
      code_challenge: request.codeChallenge,
      code_challenge_method: 'S256',
    });
    if (request.prompt) query.set('prompt', request.prompt);
    return `${this.options.issuer}/oauth/authorize?${query}`;
  }

  /**
   * Reads the redirect back to the client: checks `state` and `iss` (RFC 9207) and returns the code, or
   * throws the `error` the server sent (e.g. `access_denied`).
   */
  readCallback(callbackUrl: string | URL, expectedState: string): string {
    const params = new URL(callbackUrl).searchParams;
    if (params.get('state') !== expectedState) throw new Error('the state in the callback is not the one sent: ignore this response');
    if (params.get('iss') !== this.options.issuer) throw new Error('the callback comes from another issuer: ignore this response');
    const error = params.get('error');
    if (error) throw new AuthorizationError(error, params.get('error_description') ?? '');
    const code = params.get('code');
    if (!code) throw new Error('the callback carries neither a code nor an error');
    return code;
  }

  exchangeCode(request: { code: string; codeVerifier: string }): Promise<UserTokenResponse> {
    return this.post<UserTokenResponse>('/oauth/token', {
      grant_type: 'authorization_code',
      code: request.code,
      redirect_uri: this.options.redirectUri,
      code_verifier: request.codeVerifier,
    });
  }

  /** Refresh tokens rotate: store the returned `refresh_token`, the one sent is retired. */
  refresh(refreshToken: string, scope?: string): Promise<UserTokenResponse> {
    return this.post<UserTokenResponse>('/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshToken, ...(scope ? { scope } : {}) });
  }

  /**
   * A token for the client itself, not for a user (RFC 6749 §4.4; confidential clients only): by default
   * every registered scope that needs no user. No refresh token: ask again when it expires.
   */
  clientCredentials(scope?: string): Promise<TokenResponse> {
    return this.post<TokenResponse>('/oauth/token', { grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
  }

  async revoke(token: string, hint?: TokenInputForm['token_type_hint']): Promise<void> {
    await this.post<void>('/oauth/revoke', { token, ...(hint ? { token_type_hint: hint } : {}) });
  }

  introspect(token: string): Promise<IntrospectionResponse> {
    return this.post<IntrospectionResponse>('/oauth/introspect', { token });
  }

  private async post<T>(path: string, form: TokenForm | TokenInputForm): Promise<T> {
    const body = new URLSearchParams(Object.entries(form).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (this.options.clientSecret) {
      // RFC 6749 §2.3.1: id and secret are form-urlencoded before they go into Basic.
      const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
      headers.authorization = `Basic ${btoa(`${encode(this.options.clientId)}:${encode(this.options.clientSecret)}`)}`;
    } else {
      body.set('client_id', this.options.clientId);
    }
    const url = `${this.options.issuer}${path}`;
    if (this.options.dpop && path === '/oauth/token') headers.dpop = await this.options.dpop.proof('POST', url);
    const response = await this.fetch(url, { method: 'POST', headers, body });
    const text = await response.text();
    if (!response.ok) throw new OAuthError(response.status, JSON.parse(text) as OAuthErrorBody);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
