import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';
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

/** `200 { data: <model> }` */
export function ApiDataResponse(model: Type<unknown>, description?: string) {
  return applyDecorators(
    ApiExtraModels(model),
    ApiOkResponse({
      description,
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
      schema: { type: 'object', required: options.paged ? ['data', 'meta'] : ['data'], properties },
    }),
  );
}

/**
 * The error responses a route can give, generated from the catalogue: one response per status, with the
 * codes it can carry listed and an example of each.
 */
export function ApiErrors(...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set<ErrorCode>([...codes, 'RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'])) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return applyDecorators(
    ApiExtraModels(ErrorEnvelopeDto),
    ...[...byStatus.entries()].map(([status, list]) =>
      ApiResponse({
        status,
        description: list.map((code) => `\`${code}\`: ${ERROR_CATALOGUE[code].en}`).join(' '),
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
}
