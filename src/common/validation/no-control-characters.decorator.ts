import { ValidateBy, ValidationOptions } from 'class-validator';

export const NO_CONTROL_CHARACTERS = 'noControlCharacters';

// C0 controls and DEL. PostgreSQL cannot store or compare NUL in text at all, so without this check a
// `%00` in a query would surface as a database error instead of a validation error.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_ALL = /[\u0000-\u001f\u007f]/g;

/**
 * Whether a string holds a C0 control character or DEL. No identifier, address or name of this service
 * does, and PostgreSQL refuses NUL outright: a look-up by such a value can only find nothing.
 */
export function hasControlCharacters(value: string): boolean {
  return CONTROL.test(value);
}

/** The string with each control character replaced, for values that only name something (e.g. a counter). */
export function replaceControlCharacters(value: string, replacement = '?'): string {
  return value.replace(CONTROL_ALL, replacement);
}

/** Free text typed by a person: no control characters. */
export function NoControlCharacters(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: NO_CONTROL_CHARACTERS, validator: { validate: (value) => typeof value !== 'string' || !hasControlCharacters(value) } }, options);
}
