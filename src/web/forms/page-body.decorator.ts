import { createParamDecorator, ExecutionContext, PipeTransform, Type } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppError, ValidationIssue } from '../../common/errors/app-error';
import { createValidationPipe, prototypeNamedFields } from '../../common/validation/validation.pipe';
import { formOf } from './form';
import { PageFormDto } from './page-form.dto';

/**
 * The API's validation pipe (the same configuration: unknown fields refused, types checked, values
 * transformed into the form's class), applied to a page's posted form. A form it refuses is a
 * VALIDATION_ERROR like the API's, but the route's error format (`@SkipEnvelope({ errors: PAGE_ERRORS })`)
 * answers it with the page error in the browser's language, never the JSON envelope; the handler does not
 * run, so nothing changes.
 */
const VALIDATION = createValidationPipe({ validateCustomDecorators: true });

/**
 * How a page answers a form it refuses, when it has words of its own for it (the logout confirmation
 * says a field came twice): the error to throw, or undefined for the documented page error.
 */
export type RefuseInvalidForm = (issues: ValidationIssue[]) => Error | undefined;

/**
 * For a form whose page says on the form what is missing (the developer portal's "The name must be 1 to
 * 200 characters long."): a field sent more than once (an array where a string is expected) reads as
 * missing, as a person who typed nothing would see it. Any other refusal is still the page error.
 */
export const REPEATED_AS_MISSING = 'repeated-as-missing';

/** Validates the posted form as one PageFormDto class. */
export class PageFormPipe<T extends PageFormDto> implements PipeTransform<unknown, Promise<T>> {
  constructor(
    private readonly form: Type<T>,
    private readonly refuse?: RefuseInvalidForm | typeof REPEATED_AS_MISSING,
  ) {}

  async transform(value: unknown): Promise<T> {
    // class-transformer drops these names without a word; a form naming them is refused like any other unknown field.
    const forged = prototypeNamedFields(value);
    if (forged.length > 0) throw this.refusal(new AppError('VALIDATION_ERROR', { details: forged.map((field) => ({ field, constraint: 'whitelistValidation' })) }));
    try {
      return await this.validate(value);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const repeated = this.refuse === REPEATED_AS_MISSING ? repeatedFields(value, error.details ?? []) : [];
      if (repeated.length === 0) throw this.refusal(error);
      const rest = Object.fromEntries(Object.entries(value as object).filter(([name]) => !repeated.includes(name)));
      return this.validate(rest).catch((again: unknown) => {
        throw again instanceof AppError ? this.refusal(again) : again;
      });
    }
  }

  private async validate(value: unknown): Promise<T> {
    return (await VALIDATION.transform(value, { type: 'custom', metatype: this.form, data: undefined })) as T;
  }

  private refusal(error: AppError): Error {
    return (typeof this.refuse === 'function' ? this.refuse(error.details ?? []) : undefined) ?? error;
  }
}

/** The fields refused only for being arrays of strings (sent more than once). */
function repeatedFields(value: unknown, issues: ValidationIssue[]): string[] {
  const posted = value as Record<string, unknown>;
  const fields = [...new Set(issues.map((issue) => issue.field))];
  const repeated = fields.filter((field) => isStringList(posted[field]) && issues.every((issue) => issue.field !== field || issue.constraint === 'isString'));
  return repeated.length === fields.length ? repeated : [];
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((one) => typeof one === 'string');
}

const postedForm = createParamDecorator((_data: unknown, context: ExecutionContext) => formOf(context.switchToHttp().getRequest<FastifyRequest>()));

/**
 * The handler's posted form, validated as `form` (`@PageBody(SignInForm) form: SignInForm`). A body that
 * is not a urlencoded form reads as an empty one (formOf). The same-site and CSRF checks run before it,
 * in the route's guard (`@PageForm(…)` or the account pages' guard). `refuse` gives a page its own
 * words for a refused form (or REPEATED_AS_MISSING); without it, the documented page error (400) answers.
 */
export const PageBody = <T extends PageFormDto>(form: Type<T>, refuse?: RefuseInvalidForm | typeof REPEATED_AS_MISSING): ParameterDecorator => postedForm(undefined, new PageFormPipe(form, refuse));
