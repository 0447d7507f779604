import { Injectable, Logger } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BearerPrincipal } from '../auth/principal';
import { AppError } from '../common/errors/app-error';
import { isDatabaseUnavailable } from '../common/errors/database-unavailable';
import { ErrorCode } from '../common/errors/error-codes';
import { errorEnvelope } from '../common/errors/error-envelope';
import { Language, requestLanguage } from '../common/i18n/language';
import { envelopeOf } from '../common/interceptors/envelope.interceptor';
import { McpTool, McpTools } from './mcp-tools';

/** What the server tells a client in `initialize` (MCP, "Lifecycle"). */
const IMPLEMENTATION = { name: 'startup-platform', version: '1.0.0' };
const INSTRUCTIONS =
  'The startup platform\'s public API as tools: industries, startups (search and one by id) and the signed-in user. ' +
  'Results are the API\'s own bodies: `data`, and `meta` for a page. An error result carries the API\'s error code.';

/** Who a request is answered for, and how its errors are worded. */
interface Caller {
  principal: BearerPrincipal;
  language: Language;
  requestId: string;
}

/**
 * The MCP endpoint (docs/agents.md): the official SDK's McpServer on its Streamable HTTP transport, stateless
 * as the SDK describes it (no session id; a server and a transport for each request), so that any instance
 * answers any request. Answers are JSON, not SSE streams: every tool answers at once.
 *
 * By the time a request gets here the access guards have done what they do for every API route: the token
 * is valid and for /mcp (RFC 8707), the request is counted against the client's rate limit, and a `tools/call`
 * whose tool needs a scope the token lacks has been answered 403 (tool-scopes.ts).
 */
@Injectable()
export class McpService {
  private readonly logger = new Logger('McpService');

  constructor(private readonly tools: McpTools) {}

  async handle(request: FastifyRequest, reply: FastifyReply, principal: BearerPrincipal): Promise<void> {
    const caller: Caller = { principal, language: requestLanguage(request), requestId: request.id };
    const server = this.serverFor(caller);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    // The SDK writes the answer on Node's response itself. Fastify keeps the headers set so far (X-Request-Id,
    // RateLimit-*, CORS, the hardening headers) until it sends, which it now will not: they are handed on.
    reply.hijack();
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      this.logger.error({ err: error, requestId: caller.requestId }, 'Unexpected error');
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      else reply.raw.destroy();
    }
  }

  private serverFor(caller: Caller): McpServer {
    const server = new McpServer(IMPLEMENTATION, { instructions: INSTRUCTIONS });
    for (const tool of this.tools.all) {
      server.registerTool(
        tool.name,
        { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: { readOnlyHint: true, openWorldHint: false } },
        (args: unknown) => this.call(tool, args, caller),
      );
    }
    return server;
  }

  /**
   * A tool's result: its route's success body as structured content, and the same as JSON text for a
   * client that reads only text (MCP, "Structured content"). A failure is a tool error (`isError`, MCP
   * "Error handling") whose text is the API's error body, with its code, so the model can read and correct it.
   */
  private async call(tool: McpTool, args: unknown, caller: Caller): Promise<CallToolResult> {
    try {
      // ScopesGuard has answered such a call 403 already (tool-scopes.ts); a tool never runs without its scopes.
      if (!tool.scopes.every((scope) => caller.principal.scopes.includes(scope))) throw new AppError('INSUFFICIENT_SCOPE');
      const body = envelopeOf(await tool.run(args, caller.principal)) as Record<string, unknown>;
      return { structuredContent: body, content: [{ type: 'text', text: JSON.stringify(body) }] };
    } catch (error) {
      const body = errorEnvelope(this.codeOf(error, caller), caller.language, caller.requestId, error instanceof AppError ? error.details : undefined);
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
    }
  }

  /** The catalogue code of a failure, as the exception filter would classify it; nothing internal is shown. */
  private codeOf(error: unknown, caller: Caller): ErrorCode {
    if (error instanceof AppError) return error.code;
    if (isDatabaseUnavailable(error)) return 'SERVICE_UNAVAILABLE';
    this.logger.error({ err: error, requestId: caller.requestId }, 'Unexpected error');
    return 'INTERNAL_ERROR';
  }
}
