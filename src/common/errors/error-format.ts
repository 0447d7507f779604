import type { FastifyReply } from 'fastify';
import { Language } from '../i18n/language';
import { ValidationIssue } from './app-error';
import { ERROR_CATALOGUE, ErrorCode } from './error-codes';
import { ERROR_RESPONSE_HEADERS, errorEnvelope } from './error-envelope';

/** A failure as the exception filter has classified it, before any protocol has put it into words. */
export interface Failure {
  code: ErrorCode;
  /** Response headers that go with it (`www-authenticate`, `retry-after`, `allow`…), in lower case. */
  headers: Record<string, string>;
  details?: ValidationIssue[];
}

export interface ErrorContext {
  language: Language;
  requestId: string;
}

/**
 * How the failures of a route are written: the API's error envelope (the default), RFC 6749 §5.2 JSON
 * for the client-facing OAuth endpoints, an HTML page for pages a person reads. A route names its format
 * with `@SkipEnvelope({ errors })` (the same metadata that says its successes are not enveloped), and
 * the format holds for every failure of that route, also those raised before its handler runs (an
 * unknown method, a body that cannot be parsed, headers too large).
 */
export interface ErrorFormat {
  send(reply: FastifyReply, failure: Failure, context: ErrorContext): void;
  /**
   * The JSON body for a request that Node's parser refused before its headers were read (431, a
   * malformed request line): no language is known. A format without one (HTML pages) gets the envelope.
   */
  unparsedBody?(code: ErrorCode): object;
}

/** docs/using-the-api.md, Envelopes: `{ error: { code, message, requestId, details? } }` in the negotiated language. */
export const ENVELOPE_ERRORS: ErrorFormat = {
  send(reply, failure, { language, requestId }) {
    reply
      .status(ERROR_CATALOGUE[failure.code].status)
      .headers({ ...failure.headers, ...ERROR_RESPONSE_HEADERS, 'content-language': language })
      .send(JSON.stringify(errorEnvelope(failure.code, language, requestId, failure.details)));
  },
};
