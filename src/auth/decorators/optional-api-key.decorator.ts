import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/envelope.schemas';
import { ACCESS_KEY, AccessRule } from './public.decorator';

/**
 * Open to anyone; an `X-Api-Key` is optional and raises the rate limit from the anonymous per-IP budget
 * to the key's tier. A key that is sent must be valid: an unknown or revoked one is 401
 * `INVALID_API_KEY`, never silently anonymous (docs/using-the-api.md). The OpenAPI security lists the key and the
 * empty requirement, i.e. "optional".
 */
export const OptionalApiKey = () =>
  applyDecorators(
    SetMetadata(ACCESS_KEY, { kind: 'api-key' } satisfies AccessRule),
    ApiSecurity('api-key'),
    ApiSecurity({}),
    ApiErrors('INVALID_API_KEY', 'RATE_LIMITED'),
  );
