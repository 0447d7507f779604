/**
 * "Sign in from a command-line tool": the OAuth 2.0 Device Authorization Grant (RFC 8628) with
 * openid-client (v6), as a real CLI does it. The program asks for a code, prints it with the page to
 * open (on any device with a browser), polls the token endpoint at the interval the server gives
 * (slowing down when told to) until the user allows or denies, then prints the signed-in user.
 *
 *   npm run example:device -- --register                     # registers a public client with the local CLI first
 *   npm run example:device -- --client-id sp_client_…        # a client registered with --device-flow
 *
 * Options (or environment variables):
 *   --base-url URL        SP_BASE_URL        the issuer; default the service's PUBLIC_URL, else http://localhost:PORT (3000)
 *   --client-id ID        SP_CLIENT_ID       a client registered with `--device-flow` and the scope `openid profile email`
 *   --client-secret S     SP_CLIENT_SECRET   its secret (leave out for a public client)
 *   --register                               create the client with `npm run cli -- clients:create … --device-flow --public`
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fail, run, serviceAddress } from './service';
import * as oidc from 'openid-client';

const SCOPE = 'openid profile email';

function options() {
  const { values } = parseArgs({
    options: {
      'base-url': { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      register: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write('Usage: npm run example:device -- [--register | --client-id ID [--client-secret S]] [--base-url URL]\n');
    process.exit(0);
  }
  return {
    baseUrl: serviceAddress(values['base-url']),
    clientId: values['client-id'] ?? process.env.SP_CLIENT_ID,
    clientSecret: values['client-secret'] ?? process.env.SP_CLIENT_SECRET,
    register: values.register,
  };
}

/**
 * `clients:create` of the project's CLI, on the database the local service uses. A device never
 * receives a redirect, but registration asks for one: a loopback URI nothing listens on.
 */
function registerClient(): { client_id: string } {
  const stdout = execFileSync(
    'npm',
    ['run', '--silent', 'cli', '--', 'clients:create', '--name', 'Example command-line tool', '--redirect-uri', 'http://127.0.0.1/unused', '--scopes', SCOPE, '--public', '--device-flow', '--json'],
    { cwd: join(__dirname, '..'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return JSON.parse(stdout);
}

async function main(): Promise<void> {
  const config = options();
  let { clientId } = config;
  const { clientSecret } = config;
  if (config.register) {
    clientId = registerClient().client_id;
    run.registered = clientId;
    console.log(`Registered public client ${clientId} for the device flow`);
  }
  if (!clientId) {
    throw new Error(
      'no client: pass --register, or --client-id of a client registered with\n' +
        `  npm run cli -- clients:create --name "My tool" --redirect-uri http://127.0.0.1/unused --scopes "${SCOPE}" --public --device-flow --json`,
    );
  }

  // Discovery: the document lists device_authorization_endpoint. Plain http:// only for a local service.
  const issuer = new URL(config.baseUrl);
  const local = issuer.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
  const provider = await oidc.discovery(issuer, clientId, undefined, clientSecret ? oidc.ClientSecretPost(clientSecret) : oidc.None(), local ? { execute: [oidc.allowInsecureRequests] } : undefined);

  const device = await oidc.initiateDeviceAuthorization(provider, { scope: SCOPE });
  console.log(`\nTo sign in, open ${device.verification_uri} on any device and enter the code:\n`);
  console.log(`  ${device.user_code}\n`);
  if (device.verification_uri_complete) console.log(`Or open ${device.verification_uri_complete}\n`);
  console.log(`Waiting for you to allow access (the code expires in ${Math.round(device.expires_in / 60)} minutes)…`);

  // Polls every `interval` seconds, adds 5 at each slow_down, stops at access_denied or expired_token.
  const tokens = await oidc.pollDeviceAuthorizationGrant(provider, device);
  const claims = tokens.claims();
  console.log(`\nSigned in${claims ? ` as sub ${claims.sub}` : ''}; scope: ${tokens.scope ?? SCOPE}`);

  const me = await fetch(`${config.baseUrl}/api/public/v1/me`, { headers: { authorization: `Bearer ${tokens.access_token}`, 'accept-language': 'en' } });
  if (!me.ok) throw new Error(`GET /api/public/v1/me answered ${me.status}`);
  const { data } = (await me.json()) as { data: { id: number; name: string; email: string } };
  console.log(`GET /api/public/v1/me: ${data.name} <${data.email}> (id ${data.id})`);
}

main().catch((error: unknown) =>
  fail(error, (e) => (e instanceof oidc.ResponseBodyError ? `The server answered ${e.error}: ${e.error_description ?? ''}` : e instanceof Error ? e.message : String(e))),
);
