import { connect } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { accessLogger, logFormatFor } from '../../src/common/logging/logger';
import { http } from '../helpers/http';
import { accessToken, connectMcp, preRegistered, signInOverHttp, TestOAuthProvider } from '../helpers/mcp';
import { createSignInUser, OAuthTestClient, OAuthTestUser, registerClient } from '../helpers/oauth';
import { industryIds, insertStartups } from '../helpers/startups';
import { startTestApp, TestApp } from '../helpers/test-app';

/** Each client has its own budget: enough for one suite's work, small enough to reach in a loop. */
const CLIENT_LIMIT = 40;

/**
 * The MCP endpoint as an agent meets it (docs/agents.md): the official SDK's client, given nothing but the
 * URL, walks from a bare 401 to the authorization server and through the code flow with PKCE and
 * `resource`, then lists and calls the tools, whose results are the API's own answers for the same scopes.
 * The token controls (SECURITY.md, "Token replay across resources") and the step-up for a missing scope are
 * HTTP answers before the SDK runs.
 */
describe('the MCP endpoint (/mcp)', () => {
  let t: TestApp;
  let user: OAuthTestUser;
  let agent: OAuthTestClient;
  let provider: TestOAuthProvider;
  let client: Client;
  let apiToken: string;
  let startupIds: number[];
  const access = accessLogger('silent', logFormatFor('test'));
  const logged = jest.spyOn(access, 'info');

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_CLIENT: String(CLIENT_LIMIT), MCP_ALLOWED_ORIGINS: 'https://agent.example' });
    user = await createSignInUser(t.app);
    const industries = await industryIds(t.app);
    startupIds = await insertStartups(t.app, [
      { name: 'Kuzey Pay', foundedYear: 2019, industryId: industries.Fintech },
      { name: 'Lodos Lojistik', foundedYear: 2015, industryId: industries.Logistics, website: null },
      { name: 'Poyraz Sağlık', foundedYear: 2021, industryId: industries.Healthtech },
    ]);
    agent = await registerClient(t.app, { type: 'public', scopes: ['profile', 'read:startups'], name: 'Agent' });
    provider = new TestOAuthProvider(preRegistered(agent), signInOverHttp(t.url, user));
    client = await connectMcp(t.url, provider);
    apiToken = await accessToken(t.url, await registerClient(t.app, { type: 'public' }), user, { scope: 'profile read:startups' });
  });
  afterAll(async () => {
    await client?.close();
    logged.mockRestore();
    await t.close();
  });

  const mcpUrl = () => `${t.url}/mcp`;
  const metadata = () => `resource_metadata="${t.url}/.well-known/oauth-protected-resource/mcp"`;
  const api = (path: string, token: string) => http(t.url, `/api/public/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  /** One JSON-RPC message (or a batch) posted to /mcp as a stateless client posts it. */
  const post = (body: unknown, token?: string, headers: Record<string, string> = {}) =>
    http(t.url, '/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: JSON.stringify(body),
    });
  const call = (name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const errorOf = (result: CallToolResult) => JSON.parse((result.content[0] as { text: string }).text).error;

  it('leads a client from a bare 401 to the metadata and the authorization server, and the SDK through the code flow with PKCE and resource', async () => {
    const bare = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe(`Bearer realm="mcp", ${metadata()}`);
    expect(bare.body.error.code).toBe('UNAUTHORIZED');

    // The SDK built one authorization request, from what it discovered by itself.
    expect(provider.authorizationUrls).toHaveLength(1);
    const url = provider.authorizationUrls[0];
    expect(url.origin + url.pathname).toBe(`${t.url}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: agent.clientId,
      code_challenge_method: 'S256',
      resource: mcpUrl(),
      scope: 'profile read:startups',
    });
    expect(provider.tokens()?.access_token).toMatch(/^sp_at_/);
    expect(client.getServerVersion()).toMatchObject({ name: 'startup-platform' });
  });

  it('lists every tool, each with an input and an output schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_me', 'get_startup', 'list_industries', 'search_startups']);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const search = tools.find((tool) => tool.name === 'search_startups')!;
    // The route's documented query, limits included.
    expect(search.inputSchema).toMatchObject({
      additionalProperties: false,
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        offset: { type: 'integer', minimum: 0 },
        industryId: { type: 'integer', minimum: 1 },
        q: { type: 'string', maxLength: 200 },
        sort: { enum: ['name', '-name', 'foundedYear', '-foundedYear'], default: 'name' },
      },
    });
    expect(search.description).toContain('`read:startups`');
    expect(tools.find((tool) => tool.name === 'get_startup')!.inputSchema).toMatchObject({ required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } });
  });

  it('answers every tool with what its API route answers for the same scopes', async () => {
    const structured = async (name: string, args: Record<string, unknown> = {}) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      // The text is the same data, for a client that reads only text.
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
      return result.structuredContent;
    };
    expect(await structured('list_industries')).toEqual((await api('/industries', apiToken)).body);
    expect(await structured('search_startups')).toEqual((await api('/startups', apiToken)).body);
    const query = { q: 'lojist', sort: '-foundedYear', limit: 5, offset: 0 };
    const page = await structured('search_startups', query);
    expect(page).toEqual((await api('/startups?q=lojist&sort=-foundedYear&limit=5&offset=0', apiToken)).body);
    expect(page).toMatchObject({ data: [{ id: startupIds[1], website: null }], meta: { total: 1, limit: 5, offset: 0 } });
    const industryId = (page as { data: Array<{ industry: { id: number } }> }).data[0].industry.id;
    expect(await structured('search_startups', { industryId })).toEqual((await api(`/startups?industryId=${industryId}`, apiToken)).body);
    expect(await structured('get_startup', { id: startupIds[0] })).toEqual((await api(`/startups/${startupIds[0]}`, apiToken)).body);
    expect(await structured('get_me')).toEqual((await api('/me', apiToken)).body);
    expect(await structured('get_me')).toEqual({ data: { id: user.id, name: expect.any(String), email: user.email } });
  });

  it('answers bad arguments and an unknown id as tool errors carrying the API\'s code and details', async () => {
    const tooMany = (await client.callTool({ name: 'search_startups', arguments: { limit: 500 } })) as CallToolResult;
    expect(tooMany.isError).toBe(true);
    const apiError = (await api('/startups?limit=500', apiToken)).body.error;
    expect(errorOf(tooMany)).toEqual({ ...apiError, requestId: expect.any(String) });
    expect(errorOf(tooMany)).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'limit' }] });

    for (const args of [{ sort: 'size' }, { offset: -1 }, { industryId: 'x' }, { unknown: 1 }, { q: 'a'.repeat(201) }]) {
      const result = (await client.callTool({ name: 'search_startups', arguments: args })) as CallToolResult;
      expect([result.isError, errorOf(result).code]).toEqual([true, 'VALIDATION_ERROR']);
    }
    const noId = (await client.callTool({ name: 'get_startup', arguments: {} })) as CallToolResult;
    expect(errorOf(noId)).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'id' }] });

    const unknown = (await client.callTool({ name: 'get_startup', arguments: { id: 2_000_000_000 } })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(errorOf(unknown)).toMatchObject({ code: 'NOT_FOUND', message: expect.any(String), requestId: expect.any(String) });
    expect((await api('/startups/2000000000', apiToken)).body.error.code).toBe('NOT_FOUND');
  });

  it('words a tool error in the language the request asks for', async () => {
    const english = await post(call('get_startup', { id: 2_000_000_000 }), provider.tokens()!.access_token, { 'accept-language': 'en' });
    expect(english.status).toBe(200);
    expect(JSON.parse(english.body.result.content[0].text).error).toMatchObject({ code: 'NOT_FOUND', message: 'The requested resource was not found.', requestId: english.headers.get('x-request-id') });
  });

  it('refuses a token for the API at /mcp, and a token for /mcp at the API (RFC 8707)', async () => {
    const refused = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, apiToken);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer realm="mcp", error="invalid_token", ${metadata()}`);
    expect(refused.body.error.code).toBe('UNAUTHORIZED');

    const mcpToken = provider.tokens()!.access_token;
    const me = await api('/me', mcpToken);
    expect(me.status).toBe(401);
    expect(me.headers.get('www-authenticate')).toBe(`Bearer realm="api", error="invalid_token", resource_metadata="${t.url}/.well-known/oauth-protected-resource/api/public/v1"`);
  });

  it('judges the resource by the route a request reached, so a token for the API gets no further at /%6Dcp or an absolute target than at /mcp', async () => {
    const body = JSON.stringify(call('get_me'));
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${apiToken}` };
    for (const path of ['/%6Dcp', '/m%63p', '/%6d%63%70']) {
      const res = await fetch(`${t.url}${path}`, { method: 'POST', headers, body });
      expect([path, res.status, res.headers.get('www-authenticate')]).toEqual([path, 401, `Bearer realm="mcp", error="invalid_token", ${metadata()}`]);
    }
    // The absolute form of the request target (RFC 9112 §3.2.2), which the router also takes to /mcp.
    const { port } = new URL(t.url);
    const answer = await new Promise<string>((resolve, reject) => {
      // Written without ending our side: the server closes after its answer (Connection: close).
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          `POST ${t.url}/mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
            Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`).join('') +
            `\r\n${body}`,
        ),
      );
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('utf8')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(answer).toContain(`www-authenticate: Bearer realm="mcp", error="invalid_token", ${metadata()}`);
  });

  it('names the metadata in its DPoP challenges too, as the API does (RFC 9449 §7.1, RFC 9728 §5.1)', async () => {
    const dpop = { authorization: 'DPoP sp_at_unknown', dpop: 'not-a-proof' };
    const atMcp = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, undefined, dpop);
    expect([atMcp.status, atMcp.headers.get('www-authenticate')]).toEqual([401, `DPoP realm="mcp", error="invalid_token", algs="ES256 RS256 PS256 EdDSA", ${metadata()}`]);
    const atApi = await http(t.url, '/api/public/v1/me', { headers: dpop });
    expect([atApi.status, atApi.headers.get('www-authenticate')]).toEqual([
      401,
      `DPoP realm="api", error="invalid_token", algs="ES256 RS256 PS256 EdDSA", resource_metadata="${t.url}/.well-known/oauth-protected-resource/api/public/v1"`,
    ]);
  });

  it('lists the tools for a token without read:startups, and answers a call that needs it 403 naming the scope (the step-up)', async () => {
    const narrowClient = await registerClient(t.app, { type: 'public', scopes: ['profile'] });
    const narrow = await accessToken(t.url, narrowClient, user, { scope: 'profile', resource: mcpUrl() });

    // The SDK's client lists with it, as any agent would.
    const listed = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, narrow);
    expect(listed.status).toBe(200);
    expect(listed.body.result.tools).toHaveLength(4);
    expect((await post(call('get_me'), narrow)).body.result.structuredContent).toEqual({ data: { id: user.id, name: expect.any(String), email: user.email } });
    expect((await post(call('list_industries'), narrow)).status).toBe(200);

    // The challenge names every scope the request needs (a batch: those of all its calls), for the client to ask for them together.
    for (const [body, scope] of [
      [call('search_startups'), 'read:startups'],
      [call('get_startup', { id: startupIds[0] }), 'read:startups'],
      [[call('get_me'), { ...call('search_startups'), id: 2 }], 'profile read:startups'],
    ] as const) {
      const forbidden = await post(body, narrow);
      expect(forbidden.status).toBe(403);
      expect(forbidden.headers.get('www-authenticate')).toBe(`Bearer realm="mcp", error="insufficient_scope", scope="${scope}", ${metadata()}`);
      expect(forbidden.body.error.code).toBe('INSUFFICIENT_SCOPE');
    }
  });

  it('lets a browser-based agent post to it (CORS preflight, the protocol-version header included)', async () => {
    const res = await fetch(mcpUrl(), {
      method: 'OPTIONS',
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,mcp-protocol-version' },
    });
    expect(res.status).toBeLessThan(300);
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'mcp-protocol-version']));
  });

  it('refuses a browser origin it does not allow with 403, a JSON-RPC error (DNS rebinding), and answers its own, loopback and listed ones', async () => {
    const token = provider.tokens()!.access_token;
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    // A rebinding page sends its own site's name, whatever address that name now points at.
    for (const origin of ['https://rebound.example', 'http://localhost.rebound.example', 'http://127.0.0.1.rebound.example:8080', 'null', 'https://agent.example.rebound.example']) {
      const refused = await post(list, token, { origin, 'x-request-id': 'rebound-1' });
      expect([origin, refused.status]).toEqual([origin, 403]);
      expect(refused.body).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('may not call this MCP endpoint') }, id: null });
      expect(refused.headers.get('x-request-id')).toBe('rebound-1');
    }
    for (const origin of [undefined, new URL(t.url).origin, 'http://localhost:6274', 'http://[::1]:8080', 'https://agent.example']) {
      const answered = await post(list, token, origin === undefined ? {} : { origin });
      expect([origin, answered.status]).toEqual([origin, 200]);
      expect(answered.body.result.tools.length).toBeGreaterThan(0);
    }
  });

  it('answers GET and DELETE 405 with Allow: POST (a stateless server: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await http(t.url, '/mcp', { method, headers: { authorization: `Bearer ${provider.tokens()!.access_token}`, accept: 'text/event-stream' } });
      expect([res.status, res.headers.get('allow'), res.body.error.code]).toEqual([405, 'POST', 'METHOD_NOT_ALLOWED']);
    }
  });

  it('gives every answer a request id and the rate-limit headers, writes its access-log line, and answers 429 past the client\'s limit', async () => {
    logged.mockClear();
    const token = await accessToken(t.url, await registerClient(t.app, { type: 'public' }), user, { scope: 'read:startups', resource: mcpUrl() });
    const first = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, token, { 'x-request-id': 'agent-req-1' });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-request-id')).toBe('agent-req-1');
    expect(first.headers.get('ratelimit-limit')).toBe(String(CLIENT_LIMIT));
    const remaining = Number(first.headers.get('ratelimit-remaining'));
    expect(remaining).toBeLessThan(CLIENT_LIMIT);
    expect(first.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
    // Counted against the token's client, as on the API.
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, token)).headers.get('ratelimit-remaining')).toBe(String(remaining - 1));
    // Each message of a batch counts as one request: a hundred tool calls in one POST cost what a hundred calls cost.
    const batch = [1, 2, 3, 4, 5].map((id) => ({ ...call('list_industries'), id }));
    const batched = await post(batch, token);
    expect([batched.status, batched.body.length]).toEqual([200, 5]);
    expect(batched.headers.get('ratelimit-remaining')).toBe(String(remaining - 6));
    // Without a valid token a batch is one refused request: a stranger cannot spend an address's budget a hundred times over.
    const anonymous = await post(batch);
    const anonymousAgain = await post(batch);
    expect([anonymous.status, Number(anonymous.headers.get('ratelimit-remaining')) - Number(anonymousAgain.headers.get('ratelimit-remaining'))]).toEqual([401, 1]);
    // A batch larger than what is left is refused whole, before any of its calls runs.
    const tooMany = await post(Array.from({ length: remaining }, (_, i) => ({ ...call('list_industries'), id: i + 1 })), token);
    expect([tooMany.status, tooMany.body.error?.code]).toEqual([429, 'RATE_LIMITED']);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ requestId: 'agent-req-1', method: 'POST', url: '/mcp', status: 200 }), 'request completed');

    const last = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, token);
    expect(last.status).toBe(429);
    expect(last.body.error.code).toBe('RATE_LIMITED');
    expect(last.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(last.headers.get('ratelimit-remaining')).toBe('0');
    expect(last.headers.get('x-request-id')).toBe(last.body.error.requestId);
  });
});
