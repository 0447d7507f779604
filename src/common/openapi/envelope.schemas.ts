import { applyDecorators, Type } from '@nestjs/common';
// DECORATORS names the metadata key under which @nestjs/swagger keeps a route's responses (see ApiErrors).
import { ApiExtraModels, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiResponse, DECORATORS, getSchemaPath } from '@nestjs/swagger';
import { ERROR_CATALOGUE, ErrorCode } from '../errors/error-codes';

export class ValidationDetailDto {
  @ApiProperty({ example: 'limit' })
  field: string;

  @ApiProperty({ example: 'En fazla 100 olmalı.' })
  message: string;
}

export class ErrorBodyDto {
  @ApiProperty({ enum: Object.keys(ERROR_CATALOGUE), example: 'UNAUTHORIZED', description: 'Stable, machine-readable code.' })
  code: string;

  @ApiProperty({ example: 'Geçerli bir oturum gerekli.', description: 'Human text in the negotiated language (`tr` or `en`).' })
  message: string;

  @ApiProperty({ example: '6f1c2d2e-8c1a-4f7e-9a53-2b8f0d1e7c44', description: 'Also sent as the `X-Request-Id` header.' })
  requestId: string;

  @ApiPropertyOptional({ type: [ValidationDetailDto], description: 'Only for `VALIDATION_ERROR`.' })
  details?: ValidationDetailDto[];
}

export class ErrorEnvelopeDto {
  @ApiProperty({ type: ErrorBodyDto })
  error: ErrorBodyDto;
}

export class PageMetaDto {
  @ApiProperty({ example: 2431 })
  total: number;

  @ApiProperty({ example: 20 })
  limit: number;

  @ApiProperty({ example: 40 })
  offset: number;
}

type HeaderObjects = Record<string, { description: string; required?: boolean; schema: object }>;

/** Sent with every answer, success or failure. */
export const REQUEST_ID_HEADER: HeaderObjects = {
  'X-Request-Id': {
    description: 'The request id (the `requestId` of an error body); a client-sent `X-Request-Id` of 1–128 characters of `A–Z a–z 0–9 . _ : -` is kept.',
    required: true,
    schema: { type: 'string', example: '6f1c2d2e-8c1a-4f7e-9a53-2b8f0d1e7c44' },
  },
};

/** Sent with every answer of the public API, success or failure. */
const COMMON_HEADERS: HeaderObjects = {
  ...REQUEST_ID_HEADER,
  'Content-Language': { description: 'The language of any human text: `tr` (default) or `en`, from `Accept-Language`.', required: true, schema: { type: 'string', enum: ['tr', 'en'], example: 'tr' } },
};

/** Every answer of a rate-limited route that was counted (IETF RateLimit header fields). */
export const RATE_LIMIT_HEADERS: HeaderObjects = {
  'RateLimit-Limit': { description: 'Requests allowed a minute for this caller.', required: true, schema: { type: 'integer', example: 600 } },
  'RateLimit-Remaining': { description: 'Requests left in the current minute.', required: true, schema: { type: 'integer', example: 599 } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', required: true, schema: { type: 'integer', example: 42 } },
};

const SUCCESS_HEADERS: HeaderObjects = { ...COMMON_HEADERS, ...RATE_LIMIT_HEADERS };

/** `200 { data: <model> }` */
export function ApiDataResponse(model: Type<unknown>, description?: string) {
  return applyDecorators(
    ApiExtraModels(model),
    ApiOkResponse({
      description,
      headers: SUCCESS_HEADERS,
      schema: { type: 'object', required: ['data'], properties: { data: { $ref: getSchemaPath(model) } } },
    }),
  );
}

/** `200 { data: <model>[] }`, with `meta` when the list pages. */
export function ApiListResponse(model: Type<unknown>, options: { paged?: boolean; description?: string } = {}) {
  const properties: Record<string, object> = { data: { type: 'array', items: { $ref: getSchemaPath(model) } } };
  if (options.paged) properties.meta = { $ref: getSchemaPath(PageMetaDto) };
  return applyDecorators(
    ApiExtraModels(model, PageMetaDto),
    ApiOkResponse({
      description: options.description,
      headers: SUCCESS_HEADERS,
      schema: { type: 'object', required: options.paged ? ['data', 'meta'] : ['data'], properties },
    }),
  );
}

/**
 * Every route can answer these, whatever it declares: a request Node or Fastify cannot parse (bad
 * header syntax, broken percent-encoding), a request line or headers over the limit, the unexpected,
 * and an unreachable database or a draining instance. Rate limits come with the access decorators.
 */
const ALWAYS: ErrorCode[] = ['BAD_REQUEST', 'HEADERS_TOO_LARGE', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
const ERROR_CODES_KEY = 'openapi:errorCodes';

const ERROR_HEADERS: Record<number, HeaderObjects> = {
  401: {
    'WWW-Authenticate': {
      required: true,
      description:
        '`Bearer realm="api"` (`realm="mcp"` at `/mcp`), with `error="invalid_token"` when a token was sent (RFC 6750 §3), and `resource_metadata` naming ' +
        'the resource\'s RFC 9728 metadata; the DPoP challenge for DPoP credentials (RFC 9449 §7.1); for `INVALID_API_KEY`, `ApiKey realm="api"` followed by that Bearer challenge.',
      schema: { type: 'string', example: 'Bearer realm="api", error="invalid_token"' },
    },
  },
  403: {
    'WWW-Authenticate': {
      required: true,
      description: '`Bearer realm="api", error="insufficient_scope", scope="…"` (RFC 6750 §3.1), with `resource_metadata`; `realm="mcp"` at `/mcp`.',
      schema: { type: 'string', example: 'Bearer realm="api", error="insufficient_scope", scope="read:startups"' },
    },
  },
  429: { 'Retry-After': { description: 'Seconds until the rate-limit window resets.', required: true, schema: { type: 'integer', example: 42 } } },
  503: { 'Retry-After': { description: 'Seconds to wait before trying again, when the database is unreachable.', schema: { type: 'integer', example: 5 } } },
};

/**
 * The error responses a route can give, generated from the catalogue: one response per status, with the
 * codes it can carry listed and an example of each.
 *
 * It composes: an access decorator (`@Scopes`, `@OptionalApiKey`) declares the errors of its credentials
 * and the route adds its own (`VALIDATION_ERROR`, `NOT_FOUND`). Each application documents the union of
 * all the codes declared so far, replacing what an earlier one wrote, so no status is listed twice.
 */
export function ApiErrors(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const holder = descriptor ? (descriptor.value as object) : target;
    const previous: ErrorCode[] = Reflect.getMetadata(ERROR_CODES_KEY, holder) ?? [];
    const all = [...new Set<ErrorCode>([...previous, ...codes, ...ALWAYS])];
    Reflect.defineMetadata(ERROR_CODES_KEY, all, holder);
    const responses: Record<string, unknown> = { ...(Reflect.getMetadata(DECORATORS.API_RESPONSE, holder) ?? {}) };
    for (const code of previous) delete responses[String(ERROR_CATALOGUE[code].status)];
    Reflect.defineMetadata(DECORATORS.API_RESPONSE, responses, holder);

    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of all) {
      const status = ERROR_CATALOGUE[code].status;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    const decorate = applyDecorators(
      ApiExtraModels(ErrorEnvelopeDto),
      ...[...byStatus.entries()].map(([status, list]) =>
        ApiResponse({
          status,
          description: list.map((code) => `\`${code}\`: ${ERROR_CATALOGUE[code].en}`).join(' '),
          headers: { ...COMMON_HEADERS, ...ERROR_HEADERS[status] },
          content: {
            'application/json': {
              schema: { $ref: getSchemaPath(ErrorEnvelopeDto) },
              examples: Object.fromEntries(
                list.map((code) => [
                  code,
                  { value: { error: { code, message: ERROR_CATALOGUE[code].tr, requestId: '6f1c2d2e-8c1a-4f7e-9a53-2b8f0d1e7c44' } } },
                ]),
              ),
            },
          },
        }),
      ),
    );
    (decorate as (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => void)(target, key, descriptor);
  };
}
