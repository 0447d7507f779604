/**
 * A complete OAuth 2.0 client of the Startup Platform API, as a command-line program: the
 * authorization-code flow with PKCE through a loopback redirect (RFC 8252 §7.3), then the user's
 * profile and a page of startups through the typed client, then a refresh.
 *
 *   npm run example -- --register                       # registers a client with the local CLI first
 *   npm run example -- --client-id sp_client_… --client-secret sp_cs_…
 *
 * Options (or environment variables):
 *   --base-url URL        SP_BASE_URL        the service; default its PUBLIC_URL, else http://localhost:PORT (3000)
 *   --client-id ID        SP_CLIENT_ID       a client registered with the redirect URI below
 *   --client-secret S     SP_CLIENT_SECRET   its secret (leave out for a public client)
 *   --port N              SP_CALLBACK_PORT   the loopback port; redirect URI http://127.0.0.1:N/callback, default 8080
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
import { createPkce, OAuthClient, randomToken, StartupPlatformClient } from '../client';

const SCOPE = 'profile read:startups';

function options() {
  const { values } = parseArgs({
    options: {
      'base-url': { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      port: { type: 'string' },
      register: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write('Usage: npm run example -- [--register | --client-id ID [--client-secret S]] [--base-url URL] [--port N]\n');
    process.exit(0);
  }
  const port = Number(values.port ?? process.env.SP_CALLBACK_PORT ?? 8080);
  return {
    baseUrl: serviceAddress(values['base-url']),
    clientId: values['client-id'] ?? process.env.SP_CLIENT_ID,
    clientSecret: values['client-secret'] ?? process.env.SP_CLIENT_SECRET,
    port,
    // RFC 8252 §7.3: a loopback IP literal, not `localhost`; registered exactly like this.
    redirectUri: `http://127.0.0.1:${port}/callback`,
    register: values.register,
  };
}

/** `clients:create` of the project's CLI, on the database the local service uses (`.env` is read too). */
function registerClient(redirectUri: string): { client_id: string; client_secret: string } {
  const stdout = execFileSync(
    'npm',
    ['run', '--silent', 'cli', '--', 'clients:create', '--name', 'Example CLI client', '--redirect-uri', redirectUri, '--scopes', SCOPE, '--json'],
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

async function main(): Promise<void> {
  const config = options();
  let { clientId, clientSecret } = config;
  if (config.register) {
    const registered = registerClient(config.redirectUri);
    clientId = registered.client_id;
    run.registered = clientId;
    clientSecret = registered.client_secret;
    console.log(`Registered client ${clientId} with redirect URI ${config.redirectUri}`);
  }
  if (!clientId) {
    throw new Error(
      `no client: pass --register, or --client-id (and --client-secret) of a client registered with\n` +
        `  npm run cli -- clients:create --name "My app" --redirect-uri ${config.redirectUri} --scopes "${SCOPE}" --json`,
    );
  }

  const oauth = new OAuthClient({ issuer: config.baseUrl, clientId, clientSecret, redirectUri: config.redirectUri });
  const metadata = await oauth.discover();
  if (metadata.issuer !== config.baseUrl) throw new Error(`the server says its issuer is ${metadata.issuer}; use that as --base-url`);

  const pkce = await createPkce();
  const state = randomToken();
  const callback = waitForCallback(config.port);
  console.log('\nOpen this URL in your browser, sign in and allow access:\n');
  console.log(`  ${oauth.authorizationUrl({ scope: SCOPE, state, codeChallenge: pkce.challenge })}\n`);

  const code = oauth.readCallback(await callback, state);
  const tokens = await oauth.exchangeCode({ code, codeVerifier: pkce.verifier });
  console.log(`Authorized: scope "${tokens.scope}", access token valid for ${tokens.expires_in} s.`);

  // The client asks for the current token on every call, so a refresh below is picked up.
  let accessToken = tokens.access_token;
  const api = new StartupPlatformClient({ baseUrl: config.baseUrl, accessToken: () => accessToken, language: 'en' });

  const { data: me } = await api.me();
  console.log(`\nSigned in as ${me.name} <${me.email}> (user ${me.id})`);

  const page = await api.listStartups({ limit: 5, sort: 'name' });
  console.log(`\nStartups ${page.meta.offset + 1}–${page.meta.offset + page.data.length} of ${page.meta.total}:`);
  for (const startup of page.data) {
    console.log(`  #${startup.id}  ${startup.name}  (${startup.industry.name}, ${startup.city}, ${startup.foundedYear})`);
  }

  // Refresh tokens rotate: keep the new one, the old one is now retired.
  const refreshed = await oauth.refresh(tokens.refresh_token);
  accessToken = refreshed.access_token;
  const again = await api.me();
  console.log(`\nRefreshed the tokens; still signed in as ${again.data.email}.`);

  await oauth.revoke(refreshed.refresh_token, 'refresh_token');
  console.log('Revoked the refresh token (and the access tokens issued from it). Done.');
}

main().catch((error: unknown) => fail(error));
