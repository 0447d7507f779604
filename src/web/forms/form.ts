import type { FastifyRequest } from 'fastify';

/** The posted form of a page; anything that is not a urlencoded form (a JSON body, no body) reads as empty. */
export function formOf(request: FastifyRequest): Record<string, unknown> {
  const contentType = String(request.headers['content-type'] ?? '').toLowerCase();
  const body = request.body;
  if (!contentType.startsWith('application/x-www-form-urlencoded') || typeof body !== 'object' || body === null) return {};
  return body as Record<string, unknown>;
}
