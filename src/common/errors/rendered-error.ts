import type { FastifyReply, FastifyRequest } from 'fastify';
import { Language } from '../i18n/language';

/**
 * An error that knows how to write its own response, for the parts of the service that do not speak
 * the API envelope: the OAuth endpoints (RFC 6749 §5.2 JSON) and the HTML pages of the authorization
 * flow. The global filter lets such an error render itself.
 */
export abstract class RenderedError extends Error {
  abstract render(reply: FastifyReply, context: { request: FastifyRequest; language: Language; requestId: string }): void;
}
