/**
 * "Sign in with Startup Platform": an OpenID Connect relying party written with openid-client (v6),
 * as a command-line program. The code flow with PKCE, `state` and `nonce` through a loopback redirect
 * (RFC 8252 §7.3); the library verifies the ID token (signature against the JWKS, `iss`, `aud`,
 * `exp`, `nonce`); then UserInfo, a refresh that brings a new ID token, and the logout URL.
 *
 *   npm run example:oidc -- --register                       # registers a client with the local CLI first
 *   npm run example:oidc -- --client-id sp_client_… --client-secret sp_cs_…
 *
 * Options (or environment variables):
 *   --base-url URL        SP_BASE_URL        the issuer; default the service's PUBLIC_URL, else http://localhost:PORT (3000)
 *   --client-id ID        SP_CLIENT_ID       a client registered with the redirect URI below and the scope `openid profile email`
 *   --client-secret S     SP_CLIENT_SECRET   its secret (leave out for a public client)
 *   --port N              SP_CALLBACK_PORT   the loopback port; redirect URI http://127.0.0.1:N/callback, default 8080
 *   --id-token-alg ALG                       RS256 (default) or ES256; with --register the client is registered so
 *   --register                               create the client with `npm run cli -- clients:create` (same database)
 *
 * It prints the authorization URL: open it, sign in (the demo account is printed when `npm start`
 * creates the database) and allow access. The browser comes back to the program, which finishes alone.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fail, run, serviceAddress } from './service';
import * as oidc from 'openid-client';

const SCOPE = 'openid profile email';
const ALGS = ['RS256', 'ES256'] as const;
type Alg = (typeof ALGS)[number];

function options() {
  const { values } = parseArgs({
    options: {
      'base-url': { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      port: { type: 'string' },
      'id-token-alg': { type: 'string', default: 'RS256' },
      register: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      'Usage: npm run example:oidc -- [--register | --client-id ID [--client-secret S]] [--base-url URL] [--port N] [--id-token-alg RS256|ES256]\n',
    );
    process.exit(0);
  }
  const alg = values['id-token-alg'] as Alg;
  if (!ALGS.includes(alg)) throw new Error(`--id-token-alg must be RS256 or ES256, not ${values['id-token-alg']}`);
  const port = Number(values.port ?? process.env.SP_CALLBACK_PORT ?? 8080);
  return {
    baseUrl: serviceAddress(values['base-url']),
    clientId: values['client-id'] ?? process.env.SP_CLIENT_ID,
    clientSecret: values['client-secret'] ?? process.env.SP_CLIENT_SECRET,
    port,
    alg,
    // RFC 8252 §7.3: a loopback IP literal, not `localhost`; registered exactly like this.
    redirectUri: `http://127.0.0.1:${port}/callback`,
    register: values.register,
  };
}

/** `clients:create` of the project's CLI, on the database the local service uses (`.env` is read too). */
function registerClient(redirectUri: string, alg: Alg): { client_id: string; client_secret: string } {
  const stdout = execFileSync(
    'npm',
    [
      'run',
      '--silent',
      'cli',
      '--',
      'clients:create',
      '--name',
      'Example OpenID Connect client',
      '--redirect-uri',
      redirectUri,
      '--scopes',
      SCOPE,
      '--id-token-alg',
      alg,
      '--json',
    ],
    { cwd: join(__dirname, '..'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return JSON.parse(stdout);
}

/** Listens on the loopback redirect URI until the browser comes back with the authorization response. */
function waitForCallback(port: number, timeoutMs = 5 * 60_000): Promise<URL> {
  return new Promise((resolve, reject) => {
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
      if (url.pathname !== '/callback') {
        response.writeHead(404).end();
        return;
      }
      const failed = url.searchParams.has('error');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(
        `<!doctype html><html lang="en"><meta charset="utf-8"><title>Example client</title>` +
          `<h1>${failed ? 'Access was not granted' : 'Signed in'}</h1><p>You can close this tab and return to the terminal.</p></html>`,
      );
      clearTimeout(timer);
      server.close();
      resolve(url);
    });
    const timer = setTimeout(() => {
      server.close();
      reject(new Error('no answer from the browser within 5 minutes'));
    }, timeoutMs);
    server.on('error', reject);
    server.listen(port, '127.0.0.1');
  });
}

/** The JOSE header of a compact JWS (its first part), to show which key signed it. */
function header(jws: string): { alg: string; kid: string } {
  return JSON.parse(Buffer.from(jws.split('.')[0], 'base64url').toString('utf8'));
}

async function main(): Promise<void> {
  const config = options();
  let { clientId, clientSecret } = config;
  if (config.register) {
    const registered = registerClient(config.redirectUri, config.alg);
    clientId = registered.client_id;
    run.registered = clientId;
    clientSecret = registered.client_secret;
    console.log(`Registered client ${clientId} with redirect URI ${config.redirectUri} (ID tokens ${config.alg})`);
  }
  if (!clientId) {
    throw new Error(
      `no client: pass --register, or --client-id (and --client-secret) of a client registered with\n` +
        `  npm run cli -- clients:create --name "My app" --redirect-uri ${config.redirectUri} --scopes "${SCOPE}" --json`,
    );
  }

  // Discovery: /.well-known/openid-configuration. Plain http:// is allowed only for a local service.
  const issuer = new URL(config.baseUrl);
  const local = issuer.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
  const provider = await oidc.discovery(
    issuer,
    clientId,
    { id_token_signed_response_alg: config.alg },
    clientSecret ? oidc.ClientSecretPost(clientSecret) : oidc.None(),
    local ? { execute: [oidc.allowInsecureRequests] } : undefined,
  );
  // Verify the ID token's signature against the provider's JWKS too (not only its claims).
  oidc.enableNonRepudiationChecks(provider);
  console.log(`Discovered ${provider.serverMetadata().issuer} (keys at ${provider.serverMetadata().jwks_uri})`);

  const verifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(provider, {
    redirect_uri: config.redirectUri,
    scope: SCOPE,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
    state,
  });
  const callback = waitForCallback(config.port);
  console.log('\nOpen this URL in your browser, sign in and allow access:\n');
  console.log(`  ${url.href}\n`);

  const tokens = await oidc.authorizationCodeGrant(provider, await callback, {
    pkceCodeVerifier: verifier,
    expectedNonce: nonce,
    expectedState: state,
    idTokenExpected: true,
  });
  const claims = tokens.claims()!;
  const { alg, kid } = header(tokens.id_token!);
  console.log(`Signed in: ID token ${alg}, kid ${kid}, verified by openid-client (signature, iss, aud, exp, nonce, at_hash).`);
  console.log(`  iss        ${claims.iss}`);
  console.log(`  sub        ${claims.sub}`);
  console.log(`  aud        ${[claims.aud].flat().join(' ')}`);
  console.log(`  name       ${String(claims.name)}`);
  console.log(`  email      ${String(claims.email)} (verified: ${String(claims.email_verified)})`);
  console.log(`  auth_time  ${new Date(Number(claims.auth_time) * 1000).toISOString()}`);
  console.log(`  expires    ${new Date(claims.exp * 1000).toISOString()}`);

  // UserInfo answers for the same subject (the library checks `sub` matches the ID token's).
  const info = await oidc.fetchUserInfo(provider, tokens.access_token, claims.sub);
  console.log(`\nUserInfo: ${String(info.name)} <${String(info.email)}> (sub ${info.sub})`);

  // A refresh of a grant holding `openid` brings a new ID token for the same user and sign-in.
  const refreshed = await oidc.refreshTokenGrant(provider, tokens.refresh_token!);
  const again = refreshed.claims()!;
  if (again.sub !== claims.sub || again.auth_time !== claims.auth_time) throw new Error('the refreshed ID token names another user or sign-in');
  console.log(`Refreshed: a new ID token for sub ${again.sub}, same auth_time.`);

  // Sign the user out of Startup Platform too, coming back to a registered redirect URI.
  const logout = oidc.buildEndSessionUrl(provider, {
    id_token_hint: refreshed.id_token!,
    post_logout_redirect_uri: config.redirectUri,
    state: oidc.randomState(),
  });
  console.log(`\nTo sign out of Startup Platform as well, open:\n\n  ${logout.href}\n`);

  await oidc.tokenRevocation(provider, refreshed.refresh_token!, { token_type_hint: 'refresh_token' });
  console.log('Revoked the refresh token. Done.');
}

main().catch((error: unknown) => fail(error));
