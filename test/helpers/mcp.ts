import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser } from 'playwright-core';
import { s256Challenge } from '../../src/oauth/pkce';
import { launchBrowser } from './browser';
import { authorizePath, BrowserSession, createSignInUser, OAuthTestClient, OAuthTestUser, runAuthorization } from './oauth';
import { startTestApp, TestApp } from './test-app';

/**
 * How an MCP client identifies itself to the authorization server: the one part of the SDK's OAuth flow
 * that differs between a client registered beforehand (today: the test helpers register it as the portal
 * or the CLI would), a client ID metadata document and dynamic registration (RFC 7591). Each gives the
 * SDK's OAuthClientProvider its `clientInformation`, and may save what the SDK registered.
 */
export interface ClientRegistration {
  /** The client's metadata, as the SDK reads it (its redirect URI first). */
  metadata: OAuthClientMetadata;
  /** What the SDK sends as the client's identity; undefined lets the SDK register the client itself. */
  clientInformation(): OAuthClientInformationMixed | undefined;
  /** What the SDK registered dynamically (RFC 7591), kept for the next request. */
  save?(information: OAuthClientInformationMixed): void;
}

/** A client registered beforehand (test/helpers/oauth.ts `registerClient`), public or confidential. */
export function preRegistered(client: OAuthTestClient): ClientRegistration {
  const information: OAuthClientInformationMixed = client.clientSecret ? { client_id: client.clientId, client_secret: client.clientSecret } : { client_id: client.clientId };
  return {
    metadata: {
      client_name: client.name,
      redirect_uris: [client.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: client.clientSecret ? 'client_secret_basic' : 'none',
    },
    clientInformation: () => information,
  };
}

/**
 * A client that registers itself (RFC 7591) at the `registration_endpoint` discovery names, with the
 * metadata MCP clients send: a loopback redirect URI, no secret, and no `application_type`.
 */
export function dynamicallyRegistered(name: string, redirectUri: string): ClientRegistration & { registered?: OAuthClientInformationMixed } {
  const registration: ClientRegistration & { registered?: OAuthClientInformationMixed } = {
    metadata: {
      client_name: name,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    clientInformation: () => registration.registered,
    save: (information) => {
      registration.registered = information;
    },
  };
  return registration;
}

/**
 * The SDK's OAuthClientProvider for a test: it keeps the tokens and the PKCE verifier in memory, and where
 * a real client opens a browser at the authorization URL, it has `authorize` sign the user in and consent
 * (over HTTP, or in Chromium) and keeps the redirect back, from which `connectMcp` finishes the flow.
 */
export class TestOAuthProvider implements OAuthClientProvider {
  /** Every authorization URL the SDK built, in order. */
  readonly authorizationUrls: URL[] = [];
  private saved?: OAuthTokens;
  private verifier?: string;
  private readonly expectedState = randomBytes(12).toString('base64url');
  private callback?: Promise<URL>;

  constructor(
    private readonly registration: ClientRegistration,
    private readonly authorize: (url: URL) => Promise<URL>,
  ) {}

  get redirectUrl(): string {
    return this.registration.metadata.redirect_uris[0];
  }

  get clientMetadata(): OAuthClientMetadata {
    return this.registration.metadata;
  }

  state(): string {
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.registration.clientInformation();
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.registration.save?.(information);
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrls.push(url);
    this.callback = this.authorize(url);
    // Kept for `code()`; a failure there is reported when it is awaited.
    this.callback.catch(() => undefined);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }

  /** The code of the last authorization, once the user has signed in and consented; its `state` checked. */
  async code(): Promise<string> {
    if (!this.callback) throw new Error('the SDK never asked for an authorization');
    const back = await this.callback;
    if (back.searchParams.get('state') !== this.expectedState) throw new Error(`state mismatch in ${back.toString()}`);
    const code = back.searchParams.get('code');
    if (!code) throw new Error(`no code in ${back.toString()}`);
    return code;
  }
}

/** Sign-in and consent over HTTP with the pages' forms (test/helpers/oauth.ts `runAuthorization`). */
export function signInOverHttp(base: string, user: { email: string; password: string }): (url: URL) => Promise<URL> {
  return (url) => runAuthorization(new BrowserSession(base), url.toString(), user);
}

/**
 * Sign-in and consent as a person does them, in Chromium (test/helpers/browser.ts): the sign-in page, then
 * **Allow** on the consent page. The browser's request to the redirect URI is the result: nothing need
 * listen there (but Chromium refuses some ports, such as 9, before it asks).
 */
export function signInInChromium(browser: Browser, user: { email: string; password: string }, redirectUri: string): (url: URL) => Promise<URL> {
  return async (url) => {
    const context = await browser.newContext({ locale: 'en-US' });
    try {
      const page = await context.newPage();
      await page.goto(url.toString());
      await page.getByLabel('Email address').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Allow access' }).waitFor();
      const [back] = await Promise.all([page.waitForRequest((request) => request.url().startsWith(`${redirectUri}?`)), page.getByRole('button', { name: 'Allow' }).click()]);
      return new URL(back.url());
    } finally {
      await context.close();
    }
  };
}

const CLIENT_INFO = { name: 'startup-platform-tests', version: '1.0.0' };

/**
 * An MCP client (the SDK's Client on its Streamable HTTP transport) connected to `{base}/mcp` from
 * nothing but the URL: its first request meets the 401, the SDK finds the protected-resource metadata
 * and the authorization server from it, sends the user to authorize with PKCE and `resource`, and the
 * connection is made again with the token, as the SDK's own OAuth example does.
 */
export async function connectMcp(base: string, provider: TestOAuthProvider, headers: Record<string, string> = {}): Promise<Client> {
  const url = new URL(`${base}/mcp`);
  const client = new Client(CLIENT_INFO);
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider, requestInit: { headers } });
  try {
    await client.connect(transport);
    return client;
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  await transport.finishAuth(await provider.code());
  const authorized = new Client(CLIENT_INFO);
  await authorized.connect(new StreamableHTTPClientTransport(url, { authProvider: provider, requestInit: { headers } }));
  return authorized;
}

/**
 * An access token from the code flow over HTTP, for a resource and scopes of the test's choosing (a public
 * client with PKCE), for the calls a suite makes without the SDK.
 */
export async function accessToken(base: string, client: OAuthTestClient, user: OAuthTestUser, options: { scope: string; resource?: string }): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const back = await runAuthorization(
    new BrowserSession(base),
    authorizePath({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      scope: options.scope,
      state: 'st',
      code_challenge: s256Challenge(verifier),
      code_challenge_method: 'S256',
      resource: options.resource,
    }),
    user,
  );
  const form: Record<string, string> = { grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: client.redirectUri, code_verifier: verifier, client_id: client.clientId };
  const res = await fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`token request failed: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/** What the browser suites of MCP clients share, set once the suite's `beforeAll` has run. */
export interface McpBrowserSuite {
  t: TestApp;
  browser: Browser;
  /** A person who signs in and allows in Chromium. */
  user: OAuthTestUser;
  /** The MCP client a test connected, if any: closed after the suite, before the app. */
  client?: Client;
}

/**
 * Registers the set-up of an MCP browser suite: the app (with `overrides` of its configuration) and
 * Chromium started together, a person to sign in, and everything closed after the suite. Call it in the
 * `describe` block; read the fields in the tests.
 */
export function mcpBrowserSuite(overrides: Record<string, string> = {}): McpBrowserSuite {
  const suite = {} as McpBrowserSuite;
  beforeAll(async () => {
    [suite.t, suite.browser] = await Promise.all([startTestApp(overrides), launchBrowser()]);
    suite.user = await createSignInUser(suite.t.app);
  }, 180_000);
  afterAll(async () => {
    await suite.client?.close();
    await suite.browser?.close();
    await suite.t?.close();
  });
  return suite;
}
