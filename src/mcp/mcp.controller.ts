import { Controller, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOkResponse, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal } from '../auth/decorators/current-principal.decorator';
import { ScopesOfRequest } from '../auth/decorators/scopes.decorator';
import type { BearerPrincipal } from '../auth/principal';
import { SkipEnvelope } from '../common/envelope/skip-envelope.decorator';
import { ApiErrors, ErrorEnvelopeDto } from '../common/openapi/envelope.schemas';
import { McpService } from './mcp.service';
import { toolCallScopes } from './tool-scopes';

/** A JSON-RPC 2.0 message (MCP, "Base protocol"); the MCP schema gives each method's params and result. */
const JSON_RPC_MESSAGE = {
  type: 'object',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { oneOf: [{ type: 'string' }, { type: 'integer' }], nullable: true },
    method: { type: 'string', example: 'tools/call' },
    params: { type: 'object', additionalProperties: true },
    result: { type: 'object', additionalProperties: true },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} } },
  },
};
const JSON_RPC = { oneOf: [JSON_RPC_MESSAGE, { type: 'array', items: JSON_RPC_MESSAGE }] };
const TRANSPORT_ERROR = { content: { 'application/json': { schema: { oneOf: [{ $ref: getSchemaPath(ErrorEnvelopeDto) }, JSON_RPC_MESSAGE] } } } };

/**
 * `{PUBLIC_URL}/mcp`: the MCP Streamable HTTP transport (revision 2025-11-25) over the public API, for AI
 * agents (docs/agents.md). Only POST: a stateless server offers no SSE stream to GET and no session to
 * DELETE, so both are 405 with `Allow: POST`, as the transport specification lets a server answer.
 * Its answers are the SDK's JSON-RPC messages, never the `{data}` envelope; what the access guards refuse
 * before the SDK runs (401, 403, 429) is the API's error envelope with the resource's challenge.
 */
@ApiTags('mcp')
@Controller('mcp')
@SkipEnvelope()
export class McpController {
  constructor(private readonly mcp: McpService) {}

  @Post()
  @ApiResponse({ status: 400, description: '`BAD_REQUEST`: a body that is not JSON (the error envelope), or not a JSON-RPC message (a JSON-RPC error).', ...TRANSPORT_ERROR })
  @ApiResponse({ status: 406, description: 'The `Accept` header does not list both `application/json` and `text/event-stream` (a JSON-RPC error).', ...TRANSPORT_ERROR })
  @ApiResponse({ status: 415, description: '`UNSUPPORTED_MEDIA_TYPE`: the body is not `application/json`.', ...TRANSPORT_ERROR })
  @ScopesOfRequest(toolCallScopes)
  @ApiOperation({
    summary: 'MCP endpoint (Streamable HTTP)',
    description:
      'The Model Context Protocol over the public API, for AI agents: JSON-RPC messages in, JSON-RPC answers out (revision 2025-11-25, stateless: no session id). ' +
      'Tools: `list_industries`, `search_startups`, `get_startup`, `get_me`, each answering its API route\'s body as structured content. ' +
      'Needs an access token for the resource `{PUBLIC_URL}/mcp` (RFC 8707; a token for the API is refused, and the other way round). ' +
      'Any such token lists the tools; a `tools/call` of a tool whose scope the token lacks is 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"`. ' +
      'A 401 names the metadata at `/.well-known/oauth-protected-resource/mcp`. See docs/agents.md.',
  })
  @ApiBody({ description: 'A JSON-RPC request or notification (or a batch of them).', schema: JSON_RPC })
  @ApiOkResponse({ description: 'The JSON-RPC response(s).', content: { 'application/json': { schema: JSON_RPC } } })
  @ApiAcceptedResponse({ description: 'Only notifications or responses were sent: nothing to answer.' })
  @ApiErrors('PAYLOAD_TOO_LARGE')
  async handle(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @CurrentPrincipal() principal: BearerPrincipal): Promise<void> {
    await this.mcp.handle(request, reply, principal);
  }
}
