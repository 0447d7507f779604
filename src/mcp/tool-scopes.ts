import { ACCESS_KEY, AccessRule } from '../auth/decorators/public.decorator';
import { IndustriesController } from '../industries/industries.controller';
import { MeController } from '../me/me.controller';
import { StartupsController } from '../startups/startups.controller';

/**
 * The API route each tool stands for. A tool needs the scopes its route declares (`@Scopes`, read from the
 * route's access rule), so a tool and its route cannot come to need different scopes.
 */
export const TOOL_ROUTES = {
  list_industries: IndustriesController.prototype.list,
  search_startups: StartupsController.prototype.list,
  get_startup: StartupsController.prototype.get,
  get_me: MeController.prototype.get,
} as const;

export type ToolName = keyof typeof TOOL_ROUTES;
export const TOOL_NAMES = Object.keys(TOOL_ROUTES) as ToolName[];

/** The scopes a tool needs: its route's, none for a route open to anyone, none for an unknown tool (the SDK answers it). */
export function scopesOfTool(name: string): string[] {
  if (!Object.prototype.hasOwnProperty.call(TOOL_ROUTES, name)) return [];
  const rule = Reflect.getMetadata(ACCESS_KEY, TOOL_ROUTES[name as ToolName]) as AccessRule | undefined;
  return rule?.kind === 'bearer' ? rule.scopes : [];
}

/**
 * The scopes an MCP request needs (the `scopesOf` of the /mcp route's access rule, checked by ScopesGuard):
 * those of every tool a `tools/call` in it names, whether it is one JSON-RPC message or a batch. Any other
 * method (initialize, tools/list, ping…) needs none beyond a valid token for /mcp, so that every client can
 * list the tools, and calling one its token lacks the scope of is answered 403 `insufficient_scope` before
 * the SDK runs (the MCP authorization specification's step-up).
 */
export function toolCallScopes(request: { body?: unknown }): string[] {
  const messages = Array.isArray(request.body) ? request.body : [request.body];
  const scopes = new Set<string>();
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    if (method !== 'tools/call' || typeof params?.name !== 'string') continue;
    for (const scope of scopesOfTool(params.name)) scopes.add(scope);
  }
  return [...scopes];
}

/**
 * How many requests of the client's rate limit an MCP request counts as (the `requestsOf` of the /mcp
 * route's access rule): one per JSON-RPC message, so that a batch of a hundred tool calls costs what a
 * hundred calls of the API cost. A body that is not a batch is one.
 */
export function messageCount(request: { body?: unknown }): number {
  return Array.isArray(request.body) ? Math.max(1, request.body.length) : 1;
}
