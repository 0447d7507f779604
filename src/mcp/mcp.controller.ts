import { Controller, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal } from '../auth/decorators/current-principal.decorator';
import { ScopesOfRequest } from '../auth/decorators/scopes.decorator';
import type { BearerPrincipal } from '../auth/principal';
import { SkipEnvelope } from '../common/envelope/skip-envelope.decorator';
import { ERROR_CATALOGUE } from '../common/errors/error-codes';
import { ApiErrors, ErrorEnvelopeDto, RATE_LIMIT_HEADERS, REQUEST_ID_HEADER } from '../common/openapi/envelope.schemas';
import { JsonRpcMessageDto } from './json-rpc.schemas';
import { McpOriginGuard } from './mcp-origin.guard';
import { McpService } from './mcp.service';
import { messageCount, toolCallScopes } from './tool-scopes';

const MESSAGES = { oneOf: [{ $ref: getSchemaPath(JsonRpcMessageDto) }, { type: 'array', items: { $ref: getSchemaPath(JsonRpcMessageDto) } }] };
/** An error the MCP transport answers itself: a JSON-RPC error, or the API's envelope for what Fastify refused first. */
const TRANSPORT_ERROR = {
  headers: REQUEST_ID_HEADER,
  content: { 'application/json': { schema: { oneOf: [{ $ref: getSchemaPath(ErrorEnvelopeDto) }, { $ref: getSchemaPath(JsonRpcMessageDto) }] } } },
};

/**
 * `{PUBLIC_URL}/mcp`: the MCP Streamable HTTP transport (revision 2025-11-25) over the public API, for AI
 * agents (docs/agents.md). Only POST: a stateless server offers no SSE stream to GET and no session to
 * DELETE, so both are 405 with `Allow: POST`, as the transport specification lets a server answer.
 * Its answers are the SDK's JSON-RPC messages, never the `{data}` envelope; what the access guards refuse
 * before the SDK runs (401, 403, 429) is the API's error envelope with the resource's challenge; a browser
 * origin it does not allow is the transport's 403, a JSON-RPC error (McpOriginGuard).
 */
@ApiTags('mcp')
@ApiExtraModels(JsonRpcMessageDto, ErrorEnvelopeDto)
@Controller('mcp')
@SkipEnvelope()
@UseGuards(McpOriginGuard)
export class McpController {
  constructor(private readonly mcp: McpService) {}

  @Post()
  // Above the access decorator's, so that they replace its envelope-only 400 (ApiErrors) with both forms.
  @ApiResponse({ status: 400, description: 'Or, from the MCP transport, a JSON-RPC error: the body is not a JSON-RPC message.', ...TRANSPORT_ERROR })
  @ApiResponse({
    status: 403,
    description:
      'At /mcp, the scopes named are those of the tools a `tools/call` names (the error envelope with its challenge). ' +
      'Or, from the MCP transport, a JSON-RPC error without them: the request\'s `Origin` is not one /mcp answers (its own, a loopback origin or one of `MCP_ALLOWED_ORIGINS`).',
    headers: {
      ...REQUEST_ID_HEADER,
      'Content-Language': { description: 'With `INSUFFICIENT_SCOPE`: the language of its message, `tr` (default) or `en`.', schema: { type: 'string', enum: ['tr', 'en'] } },
      'WWW-Authenticate': {
        description: 'With `INSUFFICIENT_SCOPE`: `Bearer realm="mcp", error="insufficient_scope", scope="…", resource_metadata="…"` (RFC 6750 §3.1).',
        schema: { type: 'string', example: 'Bearer realm="mcp", error="insufficient_scope", scope="read:startups", resource_metadata="https://api.example.com/.well-known/oauth-protected-resource/mcp"' },
      },
    },
    content: {
      'application/json': {
        schema: TRANSPORT_ERROR.content['application/json'].schema,
        examples: {
          INSUFFICIENT_SCOPE: { value: { error: { code: 'INSUFFICIENT_SCOPE', message: ERROR_CATALOGUE.INSUFFICIENT_SCOPE.tr, requestId: '6f1c2d2e-8c1a-4f7e-9a53-2b8f0d1e7c44' } } },
          origin: { value: { jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden: the origin "https://rebound.example" may not call this MCP endpoint (MCP_ALLOWED_ORIGINS).' }, id: null } },
        },
      },
    },
  })
  @ApiResponse({ status: 406, description: 'The `Accept` header does not list both `application/json` and `text/event-stream` (a JSON-RPC error).', ...TRANSPORT_ERROR })
  @ApiResponse({ status: 415, description: '`UNSUPPORTED_MEDIA_TYPE`: the body is not `application/json` (the error envelope, or a JSON-RPC error).', ...TRANSPORT_ERROR })
  @ScopesOfRequest(toolCallScopes, messageCount)
  @ApiOperation({
    summary: 'MCP endpoint (Streamable HTTP)',
    description:
      'The Model Context Protocol over the public API, for AI agents: JSON-RPC messages in, JSON-RPC answers out (revision 2025-11-25, stateless: no session id). ' +
      'Tools: `list_industries`, `search_startups`, `get_startup`, `get_me`, each answering its API route\'s body as structured content. ' +
      'Needs an access token for the resource `{PUBLIC_URL}/mcp` (RFC 8707; a token for the API is refused, and the other way round). ' +
      'Any such token lists the tools; a `tools/call` of a tool whose scope the token lacks is 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"`. ' +
      'A 401 names the metadata at `/.well-known/oauth-protected-resource/mcp`. See docs/agents.md.',
  })
  @ApiBody({ description: 'A JSON-RPC request or notification, or a batch of them (each message of a batch counts as one request of the rate limit).', schema: MESSAGES })
  @ApiOkResponse({ description: 'The JSON-RPC response(s).', headers: { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS }, content: { 'application/json': { schema: MESSAGES } } })
  @ApiAcceptedResponse({ description: 'Only notifications or responses were sent: nothing to answer.', headers: { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS } })
  @ApiErrors('PAYLOAD_TOO_LARGE')
  async handle(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @CurrentPrincipal() principal: BearerPrincipal): Promise<void> {
    await this.mcp.handle(request, reply, principal);
  }
}
