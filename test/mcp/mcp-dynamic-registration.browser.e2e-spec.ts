import { hasChromium } from '../helpers/browser';
import { http } from '../helpers/http';
import { connectMcp, dynamicallyRegistered, mcpBrowserSuite, signInInChromium, TestOAuthProvider } from '../helpers/mcp';

/**
 * An MCP client that nobody registered (docs/agents.md): given only the URL of /mcp, the SDK's client
 * finds the authorization server from the 401, registers itself at its registration endpoint (RFC 7591)
 * with the metadata MCP clients send, and goes through the code flow for /mcp, the person signing in and
 * allowing in Chromium.
 */
const describeInBrowser = hasChromium ? describe : describe.skip;

describeInBrowser('an MCP client registering itself (RFC 7591) from a bare 401', () => {
  const s = mcpBrowserSuite();

  it('registers as a native public client, is allowed by the user, and calls a tool with the API’s answer', async () => {
    const registration = dynamicallyRegistered('Desk Agent', 'http://localhost:33418/callback');
    const provider = new TestOAuthProvider(registration, signInInChromium(s.browser, s.user, 'http://localhost:33418/callback'));
    s.client = await connectMcp(s.t.url, provider);

    // The SDK registered the client itself, with an http loopback URI and no application_type (typed native
    // for it: a web client's would be refused), and got no secret (a public client, PKCE).
    const registered = registration.registered as Record<string, unknown>;
    expect(registered).toMatchObject({ token_endpoint_auth_method: 'none', redirect_uris: ['http://localhost:33418/callback'] });
    expect(registered.client_secret).toBeUndefined();
    expect(provider.authorizationUrls[0].searchParams.get('client_id')).toBe(registered.client_id);
    expect(provider.authorizationUrls[0].searchParams.get('resource')).toBe(`${s.t.url}/mcp`);

    const tools = await s.client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['get_me', 'get_startup', 'list_industries', 'search_startups']);
    const me = await s.client.callTool({ name: 'get_me', arguments: {} });
    const token = provider.tokens()!.access_token;
    // A token for /mcp only: the API refuses it (RFC 8707), so the API's answer is read with its own token.
    expect((await http(s.t.url, '/api/public/v1/me', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect(me.structuredContent).toEqual({ data: expect.objectContaining({ id: s.user.id, email: s.user.email }) });
  });
});
