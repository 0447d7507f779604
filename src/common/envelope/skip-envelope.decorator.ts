import { SetMetadata } from '@nestjs/common';
import { ErrorFormat } from '../errors/error-format';

export const SKIP_ENVELOPE = 'skipEnvelope';

/** What `@SkipEnvelope()` records on a controller or a handler. */
export interface SkipEnvelopeOptions {
  /** How the route's failures are written; the API's error envelope when omitted. */
  errors?: ErrorFormat;
}

/**
 * For routes that answer their own protocol (OAuth, health, HTML pages) instead of `{data}`: their
 * results are sent as they are, and their failures in `errors` (see ErrorFormat), e.g.
 * `@SkipEnvelope({ errors: OAUTH_JSON_ERRORS })`. This metadata alone decides both: renaming or moving a
 * route keeps its protocol.
 */
export const SkipEnvelope = (options: SkipEnvelopeOptions = {}) => SetMetadata(SKIP_ENVELOPE, options);
