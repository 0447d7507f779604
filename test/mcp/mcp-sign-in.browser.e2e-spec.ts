import { hasChromium } from '../helpers/browser';
import { http } from '../helpers/http';
import { accessToken, connectMcp, mcpBrowserSuite, preRegistered, signInInChromium, TestOAuthProvider } from '../helpers/mcp';
import { registerClient } from '../helpers/oauth';

const describeInBrowser = hasChromium ? describe : describe.skip;

/**
 * An agent's first connection as a person sees it (docs/agents.md): the SDK's client meets the 401, finds the
 * authorization server, and opens the sign-in page; the person signs in and allows in Chromium, and the
 * agent's tools answer for them.
 */
describeInBrowser('connecting an MCP client with a sign-in in the browser', () => {
  const s = mcpBrowserSuite();

  it('signs the person in, asks their consent, and answers get_me for them', async () => {
    const agent = await registerClient(s.t.app, { type: 'public', name: 'Desktop Agent', redirectUris: ['http://127.0.0.1:8123/callback'] });
    const provider = new TestOAuthProvider(preRegistered(agent), signInInChromium(s.browser, s.user, agent.redirectUri));
    s.client = await connectMcp(s.t.url, provider);
    expect(new URL(provider.authorizationUrls[0]).searchParams.get('resource')).toBe(`${s.t.url}/mcp`);
    const result = await s.client.callTool({ name: 'get_me', arguments: {} });
    const apiToken = await accessToken(s.t.url, await registerClient(s.t.app, { type: 'public' }), s.user, { scope: 'profile' });
    expect(result.structuredContent).toEqual((await http(s.t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${apiToken}` } })).body);
  });
});
