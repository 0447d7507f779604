import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A JSON-RPC 2.0 error object (JSON-RPC 2.0 §5.1). */
export class JsonRpcErrorDto {
  @ApiProperty({ type: 'integer', example: -32602 })
  code: number;

  @ApiProperty({ example: 'Invalid params' })
  message: string;

  @ApiPropertyOptional({ description: 'Anything the server adds.' })
  data?: unknown;
}

/**
 * A JSON-RPC 2.0 message as the MCP carries it (MCP, "Base protocol"): a request or notification
 * (`method`, `params`), or a response (`result` or `error`). The MCP schema gives each method's params and result.
 */
export class JsonRpcMessageDto {
  @ApiProperty({ enum: ['2.0'], example: '2.0' })
  jsonrpc: '2.0';

  @ApiPropertyOptional({ anyOf: [{ type: 'string', nullable: true }, { type: 'integer' }], example: 1, description: 'Absent in a notification; null in an error about an unreadable request.' })
  id?: string | number | null;

  @ApiPropertyOptional({ example: 'tools/call' })
  method?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { name: 'search_startups', arguments: { q: 'pay', limit: 5 } } })
  params?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'A tool call\'s result: `content`, `structuredContent` (the API route\'s body), `isError`.' })
  result?: Record<string, unknown>;

  @ApiPropertyOptional({ type: JsonRpcErrorDto })
  error?: JsonRpcErrorDto;
}
