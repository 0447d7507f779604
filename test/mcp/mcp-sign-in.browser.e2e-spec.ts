import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { hasChromium, launchBrowser } from '../helpers/browser';
import { http } from '../helpers/http';
import { accessToken, connectMcp, preRegistered, signInInChromium, TestOAuthProvider } from '../helpers/mcp';
import { createSignInUser, OAuthTestUser, registerClient } from '../helpers/oauth';
import { startTestApp, TestApp } from '../helpers/test-app';

const describeInBrowser = hasChromium ? describe : describe.skip;

/**
 * An agent's first connection as a person sees it (docs/agents.md): the SDK's client meets the 401, finds the
 * authorization server, and opens the sign-in page; the person signs in and allows in Chromium, and the
 * agent's tools answer for them.
 */
describeInBrowser('connecting an MCP client with a sign-in in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let user: OAuthTestUser;
  let client: Client | undefined;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    user = await createSignInUser(t.app);
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await t?.close();
  });

  it('signs the person in, asks their consent, and answers get_me for them', async () => {
    const agent = await registerClient(t.app, { type: 'public', name: 'Desktop Agent', redirectUris: ['http://127.0.0.1:8123/callback'] });
    const provider = new TestOAuthProvider(preRegistered(agent), signInInChromium(browser, user, agent.redirectUri));
    client = await connectMcp(t.url, provider);
    expect(new URL(provider.authorizationUrls[0]).searchParams.get('resource')).toBe(`${t.url}/mcp`);
    const result = await client.callTool({ name: 'get_me', arguments: {} });
    const apiToken = await accessToken(t.url, await registerClient(t.app, { type: 'public' }), user, { scope: 'profile' });
    expect(result.structuredContent).toEqual((await http(t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${apiToken}` } })).body);
  });
});
