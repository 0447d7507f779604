import { createParamDecorator, ExecutionContext, PipeTransform, Type } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppError, ValidationIssue } from '../../common/errors/app-error';
import { createValidationPipe } from '../../common/validation/validation.pipe';
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

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

/**
 * How a page answers a form it refuses, when it has words of its own for it (the logout confirmation
 * says a field came twice): the error to throw, or undefined for the documented page error.
 */
export type RefuseInvalidForm = (issues: ValidationIssue[]) => Error | undefined;

/** Validates the posted form as one PageFormDto class. */
export class PageFormPipe<T extends PageFormDto> implements PipeTransform<unknown, Promise<T>> {
  constructor(
    private readonly form: Type<T>,
    private readonly refuse?: RefuseInvalidForm,
  ) {}

  async transform(value: unknown): Promise<T> {
    // class-transformer drops these names without a word; a form naming them is refused like any other unknown field.
    const forged = typeof value === 'object' && value !== null ? PROTOTYPE_KEYS.filter((key) => Object.prototype.hasOwnProperty.call(value, key)) : [];
    if (forged.length > 0) throw this.refusal(new AppError('VALIDATION_ERROR', { details: forged.map((field) => ({ field, constraint: 'whitelistValidation' })) }));
    try {
      return (await VALIDATION.transform(value, { type: 'custom', metatype: this.form, data: undefined })) as T;
    } catch (error) {
      throw error instanceof AppError ? this.refusal(error) : error;
    }
  }

  private refusal(error: AppError): Error {
    return this.refuse?.(error.details ?? []) ?? error;
  }
}

const postedForm = createParamDecorator((_data: unknown, context: ExecutionContext) => formOf(context.switchToHttp().getRequest<FastifyRequest>()));

/**
 * The handler's posted form, validated as `form` (`@PageBody(SignInForm) form: SignInForm`). A body that
 * is not a urlencoded form reads as an empty one (formOf). The same-site and CSRF checks run before it,
 * in the route's guard (`@PageForm(…)` or the account pages' guard). `refuse` gives a page its own
 * words for a refused form; without it, the documented page error (400) answers.
 */
export const PageBody = <T extends PageFormDto>(form: Type<T>, refuse?: RefuseInvalidForm): ParameterDecorator => postedForm(undefined, new PageFormPipe(form, refuse));
