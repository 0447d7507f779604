import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RenderedError } from '../common/errors/rendered-error';
import { appConfig } from '../config/configuration';

/** Who may call /mcp from a browser: the service's own origin, a loopback one, or one listed (or `*`: any). */
export interface McpOriginRule {
  publicOrigin: string;
  listed: '*' | readonly string[];
}

/**
 * Whether `Origin` may reach the MCP endpoint (docs/agents.md, "Browser-based agents"). No `Origin` is not
 * a browser's cross-origin request, which is all DNS rebinding can make. A loopback origin is a program on
 * the caller's own machine (an inspector, a local agent): a rebinding page always carries its own site's
 * name, never `localhost` or `127.0.0.1`. `null` (a sandboxed frame, a file) is allowed only by `*`.
 */
export function mcpOriginAllowed(origin: string | undefined, rule: McpOriginRule): boolean {
  if (origin === undefined) return true;
  if (rule.listed === '*' || origin === rule.publicOrigin || rule.listed.includes(origin)) return true;
  return isLoopbackOrigin(origin);
}

function isLoopbackOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  return url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

/**
 * The MCP transport's answer to an origin it does not allow: 403 with a JSON-RPC error, as the transport
 * answers what it refuses (MCP Streamable HTTP 2025-11-25, "Security Warning").
 */
export class McpOriginRefused extends RenderedError {
  constructor(readonly origin: string) {
    super('origin not allowed at /mcp');
    this.name = 'McpOriginRefused';
  }

  render(reply: FastifyReply): void {
    reply
      .status(403)
      .headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
      .send(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: the origin ${JSON.stringify(this.origin)} may not call this MCP endpoint (MCP_ALLOWED_ORIGINS).` }, id: null }));
  }
}

/**
 * The MCP transport's MUST against DNS rebinding (Streamable HTTP 2025-11-25, "Security Warning"): a request
 * whose `Origin` is present and not allowed is answered 403. It runs after the access pipeline, as every
 * refusal of the API: the request is counted first, and one without a valid token has had its 401.
 */
@Injectable()
export class McpOriginGuard implements CanActivate {
  private readonly rule: McpOriginRule;

  constructor(@Inject(appConfig.KEY) app: ConfigType<typeof appConfig>) {
    this.rule = { publicOrigin: new URL(app.publicUrl).origin, listed: app.mcpAllowedOrigins };
  }

  canActivate(context: ExecutionContext): boolean {
    const origin = context.switchToHttp().getRequest<FastifyRequest>().headers.origin;
    if (mcpOriginAllowed(origin, this.rule)) return true;
    throw new McpOriginRefused(origin!);
  }
}
