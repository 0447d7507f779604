import { hasChromium } from '../helpers/browser';
import { DocumentSite } from '../helpers/client-documents';
import { ClientRegistration, connectMcp, mcpBrowserSuite, signInInChromium, TestOAuthProvider } from '../helpers/mcp';

const CALLBACK = 'http://127.0.0.1:33419/callback';

/**
 * An MCP client identified by its client ID metadata document (docs/agents.md): the SDK's client, whose
 * client ID is the URL of a document the test serves on loopback (CLIENT_METADATA_ALLOW_LOOPBACK, as in
 * development; the SDK itself only builds such IDs from https URLs, so the URL is handed to it as the
 * client's ID), connects to /mcp from a bare 401, the person signing in and allowing in Chromium, and the
 * server fetches the document (the consent page
 * naming its site is test/oauth/client-metadata-pages.browser.e2e-spec.ts's).
 */
const describeInBrowser = hasChromium ? describe : describe.skip;

describeInBrowser('an MCP client identified by a client ID metadata document', () => {
  const s = mcpBrowserSuite({ CLIENT_METADATA_ALLOW_LOOPBACK: 'true' });
  let site: DocumentSite;

  beforeAll(async () => {
    site = await new DocumentSite().start();
  });
  afterAll(async () => {
    await site?.close();
  });

  it('connects with nothing registered: the document is fetched once, and the tools answer', async () => {
    const clientId = site.url('/agents/desk.json');
    site.serve('/agents/desk.json', { client_id: clientId, client_name: 'Desk Agent', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }, { 'cache-control': 'max-age=3600' });
    const registration: ClientRegistration = {
      metadata: { client_name: 'Desk Agent', redirect_uris: [CALLBACK], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
      clientInformation: () => ({ client_id: clientId }),
    };
    const provider = new TestOAuthProvider(registration, signInInChromium(s.browser, s.user, CALLBACK));
    s.client = await connectMcp(s.t.url, provider);

    expect(provider.authorizationUrls[0].searchParams.get('client_id')).toBe(clientId);
    expect(site.fetched('/agents/desk.json')).toBe(1);
    const tools = await s.client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['get_me', 'get_startup', 'list_industries', 'search_startups']);
    const me = await s.client.callTool({ name: 'get_me', arguments: {} });
    expect(me.structuredContent).toEqual({ data: expect.objectContaining({ id: s.user.id, email: s.user.email }) });
  });
});
