import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { hasChromium } from '../helpers/browser';
import { mcpBrowserSuite } from '../helpers/mcp';
import { registerClient } from '../helpers/oauth';
import { freePort } from '../helpers/test-app';

// The MCP conformance suite's `authorization` command drives an authorization server as an MCP client
// would: it reads the server's metadata, then sends a person to the authorization endpoint (with PKCE and
// the `resource` of docs/agents.md) and redeems the code at its own loopback callback. It runs on Node 22
// or later; on an older runtime this suite is skipped.
const CONFORMANCE = require.resolve('@modelcontextprotocol/conformance/dist/index.js');
const nodeMajor = Number(process.versions.node.split('.')[0]);
const describeWithSuite = hasChromium && nodeMajor >= 22 ? describe : describe.skip;

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

describeWithSuite('the MCP conformance suite, authorization-server scenarios, with the resource /mcp (docs/agents.md)', () => {
  const s = mcpBrowserSuite();

  /**
   * Runs the suite against the service; when it prints the authorization request, a person signs in and
   * allows in Chromium. Resolves with every check the suite wrote and the suite's exit code.
   */
  async function runSuite(client: { clientId: string }, port: number): Promise<{ checks: Check[]; code: number | null; output: string }> {
    const outputDir = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
    const args = [CONFORMANCE, 'authorization', '--url', s.t.url, '--client-id', client.clientId, '--resource', `${s.t.url}/mcp`, '--port', String(port), '-o', outputDir];
    const suite = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    suite.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const signedIn: Promise<void>[] = [];
    for await (const line of createInterface({ input: suite.stdout })) {
      output += `${line}\n`;
      if (line.startsWith(`${s.t.url}/oauth/authorize?`)) signedIn.push(signInAndAllow(line));
    }
    const code = await new Promise<number | null>((resolve) => (suite.exitCode !== null ? resolve(suite.exitCode) : suite.once('exit', resolve)));
    await Promise.all(signedIn);
    const checks: Check[] = [];
    for (const file of await readdir(outputDir, { recursive: true })) {
      if (file.endsWith('checks.json')) checks.push(...(JSON.parse(await readFile(join(outputDir, file), 'utf8')) as Check[]));
    }
    await rm(outputDir, { recursive: true, force: true });
    return { checks, code, output };
  }

  async function signInAndAllow(authorizationUrl: string): Promise<void> {
    const context = await s.browser.newContext({ locale: 'en-US' });
    try {
      const page = await context.newPage();
      await page.goto(authorizationUrl);
      await page.getByLabel('Email address').fill(s.user.email);
      await page.getByLabel('Password').fill(s.user.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await Promise.all([page.waitForURL('http://127.0.0.1:*/callback?**'), page.getByRole('button', { name: 'Allow' }).click()]);
    } finally {
      await context.close();
    }
  }

  function expectEveryScenarioPassed(result: { checks: Check[]; code: number | null; output: string }): void {
    const failed = result.checks.filter((check) => check.status === 'FAILURE');
    expect({ failed, code: result.code }).toEqual({ failed: [], code: 0 });
    expect(result.checks.map((check) => [check.id, check.status])).toEqual(
      expect.arrayContaining([
        ['authorization-server-metadata', 'SUCCESS'],
        // Client ID metadata documents announced (docs/integrate-with-oauth.md, "Clients identified by a URL").
        ['authorization-server-metadata-cimd', 'SUCCESS'],
        ['authorization-code-grant', 'SUCCESS'],
      ]),
    );
  }

  // A public client (PKCE, no secret), as agents are: the suite authenticates at the token endpoint with
  // `none` whenever the metadata lists it, so a confidential client's secret would never be sent.
  it('passes with a public client', async () => {
    const port = await freePort();
    const client = await registerClient(s.t.app, { type: 'public', name: 'Conformance Agent', redirectUris: [`http://127.0.0.1:${port}/callback`] });
    expectEveryScenarioPassed(await runSuite(client, port));
  }, 180_000);
});
