import { ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { AppError, ValidationIssue } from '../errors/app-error';

/**
 * The global validation pipe: unknown fields are refused (whitelist + forbidNonWhitelisted), values are
 * transformed to their declared types, and failures become one VALIDATION_ERROR whose details name each
 * field and carry the constraint's arguments, so the filter can word them in either language.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
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
