import { ArgumentMetadata, ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { AppError, ValidationIssue } from '../errors/app-error';

/**
 * The global validation pipe: unknown fields are refused (whitelist + forbidNonWhitelisted), values are
 * transformed to their declared types, and failures become one VALIDATION_ERROR whose details name each
 * field and carry the constraint's arguments, so the filter can word them in either language.
 */
export function createValidationPipe(extra: Pick<ValidationPipeOptions, 'validateCustomDecorators'> = {}): ValidationPipe {
  return new EmptyQueryAwareValidationPipe({
    ...extra,
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: true,
    validationError: { target: true, value: false },
    exceptionFactory: (errors) => new AppError('VALIDATION_ERROR', { details: toIssues(errors) }),
  });
}

export function toIssues(errors: ValidationError[], parent = ''): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    for (const constraint of Object.keys(error.constraints ?? {})) {
      issues.push({ field, constraint, args: constraintArgs(error.target, error.property, constraint) });
    }
    if (error.children?.length) issues.push(...toIssues(error.children, field));
  }
  return issues;
}

/** The arguments a decorator was declared with (`@Max(100)` → `[100]`), read from class-validator's metadata. */
function constraintArgs(target: object | undefined, property: string, constraint: string): unknown[] {
  if (!target) return [];
  const metadata = getMetadataStorage()
    .getTargetValidationMetadatas(target.constructor, '', true, false)
    .find((m) => m.propertyName === property && m.name === constraint);
  return metadata?.constraints ?? [];
}

/**
 * Most calls send no query string at all: for an empty query the outcome depends on the DTO alone, so once
 * an empty query of a DTO has passed validation, later empty ones get a new instance of the DTO (its
 * defaults, exactly what the transformation yields) without running class-transformer and
 * class-validator again. A DTO whose empty query fails keeps failing through the full path.
 */
class EmptyQueryAwareValidationPipe extends ValidationPipe {
  private readonly emptyQueryPasses = new WeakSet<object>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const forged = prototypeNamedFields(value);
    if (forged.length > 0) throw new AppError('VALIDATION_ERROR', { details: forged.map((field) => ({ field, constraint: 'whitelistValidation' })) });
    const type = metadata.metatype as (new () => object) | undefined;
    const emptyQuery = metadata.type === 'query' && type !== undefined && isEmptyObject(value);
    if (emptyQuery && this.emptyQueryPasses.has(type)) return new type();
    const result: unknown = await super.transform(value, metadata);
    if (emptyQuery && result instanceof type) this.emptyQueryPasses.add(type);
    return result;
  }
}

/**
 * The fields of a query or body named like a member every object inherits (`__proto__`, `constructor`,
 * `toString`, `hasOwnProperty`…) or `prototype`: class-transformer drops them without a word, so the
 * whitelist never sees them, and they are refused here as the unknown fields they are.
 */
export function prototypeNamedFields(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.keys(value).filter((key) => key === 'prototype' || key in Object.prototype);
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (const _key in value) return false;
  return true;
}
