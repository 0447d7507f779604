import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { CreateClientCommand } from '../../src/clients/clients.commands';
import { ClientsService } from '../../src/clients/clients.service';
import { DeveloperInputError, DeveloperService } from '../../src/developer/developer.service';
import { createTestUser, TestUser } from '../helpers/tokens';
import { startTestApp, TestApp } from '../helpers/test-app';

/** Control (Cc) and format (Cf) characters: bidirectional overrides and isolates, zero-width characters, … */
const CONTROL_OR_FORMAT = /^(?:\p{Cc}|\p{Cf})$/u;
const controlOrFormat = fc.oneof(
  fc.constantFrom('\u0000', '\u0009', '\u001b', '\u007f', '\u0085', '\u00ad', '\u061c', '\u200b', '\u200d', '\u200e', '\u202e', '\u2066', '\u2069', '\ufeff', '\u{e0041}'),
  fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)).filter((c) => CONTROL_OR_FORMAT.test(c)),
);
const lookAlikeName = fc
  .tuple(fc.string({ unit: 'grapheme', maxLength: 60 }), controlOrFormat, fc.string({ unit: 'grapheme', maxLength: 60 }))
  .map(([before, bad, after]) => `App ${before}${bad}${after}`);

/** Redirect URI candidates, from plausible to hostile. */
const uriCandidate = fc.oneof(
  fc.webUrl({ withQueryParameters: true, validSchemes: ['https', 'http'] }),
  fc.webUrl({ validSchemes: ['https'] }).map((uri) => (URL.canParse(uri) ? new URL(uri).href : uri)),
  fc
    .tuple(
      fc.constantFrom('https://', 'http://127.0.0.1:', 'http://[::1]', 'https:', 'HTTPS://', 'https://[', 'http://localhost'),
      fc.string({ unit: fc.constantFrom(...'ab9.-_:/?#[]@$&\'()*+,;=%\\ \u0000\u202eé'.split('')), maxLength: 24 }),
    )
    .map(([a, b]) => a + b),
);

/** The host grammar of SECURITY.md, independent of the code's own. */
function hostFollowsGrammar(host: string): boolean {
  if (/^\[[0-9a-f:.]+\]$/.test(host)) return true;
  if (/^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(host)) return true;
  return host.split('.').every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label));
}

/**
 * Application names and redirect URIs go through one rule, whichever way they come in (SECURITY.md,
 * "Look-alike and reordered application names", "Malformed redirect URIs"): the developer portal's
 * register and edit, and the operator's `clients:create`. Property-based, on the real database.
 */
describe('one rule for application names and redirect URIs, in the portal and the CLI', () => {
  let t: TestApp;
  let portal: DeveloperService;
  let clients: ClientsService;
  let owner: TestUser;
  let ownClientId: string;

  beforeAll(async () => {
    t = await startTestApp({ DEVELOPER_MAX_CLIENTS: '1000' });
    portal = t.app.get(DeveloperService);
    clients = t.app.get(ClientsService, { strict: false });
    owner = await createTestUser(t.app);
    ownClientId = (await portal.registerApplication(as(owner), { name: 'Own app', redirectUris: ['https://own.example/cb'], type: 'confidential', scopes: ['profile'] })).client.clientId;
  });
  afterAll(() => t?.close());

  const as = (user: TestUser) => ({ userId: user.id, ip: '203.0.113.9' });

  async function snapshot(): Promise<string> {
    return JSON.stringify(await t.app.get(DataSource).query('SELECT client_id, name, redirect_uris FROM oauth_clients ORDER BY id'));
  }

  /** `clients:create` as the CLI runs it, with the app's own services: its exit code and its output. */
  async function cliCreate(options: Record<string, unknown>): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
    const previous = process.exitCode;
    process.exitCode = 0;
    try {
      await new CreateClientCommand(clients).run([], { scopes: 'profile', json: true, ...options });
      return { exitCode: Number(process.exitCode ?? 0), stdout: out.join(''), stderr: err.join('') };
    } finally {
      process.exitCode = previous;
      stdout.mockRestore();
      stderr.mockRestore();
    }
  }

  it('refuses any name holding a control or format character, in the portal (register and edit) and in the CLI, and stores nothing', async () => {
    await fc.assert(
      fc.asyncProperty(lookAlikeName, async (name) => {
        fc.pre(name.length <= 200);
        const before = await snapshot();
        await expect(portal.registerApplication(as(owner), { name, redirectUris: ['https://app.example/cb'], type: 'confidential', scopes: ['profile'] })).rejects.toEqual(
          new DeveloperInputError('name_characters'),
        );
        await expect(portal.editApplication(as(owner), ownClientId, { name, redirectUris: ['https://app.example/cb'] })).rejects.toEqual(new DeveloperInputError('name_characters'));
        const cli = await cliCreate({ name, redirectUri: ['https://app.example/cb'] });
        expect([cli.exitCode, cli.stdout]).toEqual([1, '']);
        expect(cli.stderr).toMatch(/^Invalid name: U\+[0-9A-F]{4,6} is a control or invisible formatting character \(no control characters, direction overrides or isolates, zero-width characters\)\n$/);
        expect(await snapshot()).toBe(before);
      }),
      { numRuns: 100 },
    );
  }, 120_000);

  it('stores a redirect URI only as the string the WHATWG parser gives back, on a host of the grammar, and the portal and the CLI agree', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(uriCandidate, async (uri) => {
        const before = await snapshot();
        const viaPortal = await portal
          .registerApplication(as(owner), { name: 'Prop app', redirectUris: [uri], type: 'confidential', scopes: ['profile'] })
          .then(({ client }) => client.clientId, (error: unknown) => {
            if (!(error instanceof DeveloperInputError)) throw error;
            return undefined;
          });
        const viaCli = await cliCreate({ name: 'Prop app', redirectUri: [uri] });
        // The same rule: both accept, or both refuse.
        expect([uri, viaPortal !== undefined]).toEqual([uri, viaCli.exitCode === 0]);
        if (viaPortal === undefined) {
          expect(viaCli.stderr).toMatch(/^Invalid redirect URI /);
          expect(await snapshot()).toBe(before);
          return;
        }
        accepted += 1;
        for (const clientId of [viaPortal, JSON.parse(viaCli.stdout).client_id as string]) {
          const stored = (await clients.findByClientId(clientId))!;
          expect(stored.redirectUris).toEqual([uri]);
          expect(new URL(uri).href).toBe(uri);
          expect([uri, hostFollowsGrammar(new URL(uri).hostname)]).toEqual([uri, true]);
          await clients.delete(clientId);
        }
      }),
      { numRuns: 150 },
    );
    expect(accepted).toBeGreaterThan(10);
  }, 120_000);
});
