import { SetMetadata } from '@nestjs/common';

export const SKIP_ENVELOPE = 'skipEnvelope';

/** For controllers that answer their own protocol (OAuth, health, HTML pages) instead of `{data}`. */
export const SkipEnvelope = () => SetMetadata(SKIP_ENVELOPE, true);
