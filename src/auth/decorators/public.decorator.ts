import { applyDecorators, SetMetadata } from '@nestjs/common';

export const ACCESS_KEY = 'access';

/** How a route is reached. Every route needs a Bearer token unless it declares otherwise. */
export type AccessRule =
  | { kind: 'public' }
  | { kind: 'api-key' }
  | { kind: 'bearer'; scopes: string[] };

/** No credentials at all (health, discovery, the OAuth endpoints that authenticate clients themselves). */
export const Public = () => applyDecorators(SetMetadata(ACCESS_KEY, { kind: 'public' } satisfies AccessRule));
