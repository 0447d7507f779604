import type { FastifyRequest } from 'fastify';

/** The posted form of a page; anything that is not a urlencoded form (a JSON body, no body) reads as empty. */
export function formOf(request: FastifyRequest): Record<string, unknown> {
  const contentType = String(request.headers['content-type'] ?? '').toLowerCase();
  const body = request.body;
  if (!contentType.startsWith('application/x-www-form-urlencoded') || typeof body !== 'object' || body === null) return {};
  return body as Record<string, unknown>;
}

/** One parameter of a page's query string; a repeated one (an array) or none reads as undefined. */
export function queryField(request: FastifyRequest, name: string): string | undefined {
  const query = request.query;
  const value = typeof query === 'object' && query !== null ? (query as Partial<Record<string, unknown>>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}
