import { applyDecorators } from '@nestjs/common';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** The longest value a field of a page takes, unless its form says less: well above any real entry. */
export const PAGE_FIELD_MAX = 8192;

/** A passkey's credential or assertion (WebAuthn JSON), which carries the authenticator's data and certificates. */
export const CREDENTIAL_FIELD_MAX = 65_536;

/**
 * A text field of a page's form, as the validation pipe reads it: optional (a missing field is the
 * service's to name on the form), text (one value, or with `each` several: a checkbox per value), at most
 * `max` characters. What the field means is checked by the service; this only bounds what is read. The
 * decorators are applied in the order the same three written one above the other would be.
 */
export function PageField(max: number = PAGE_FIELD_MAX, options: { each?: boolean } = {}): PropertyDecorator {
  return applyDecorators(IsString(options), MaxLength(max, options), IsOptional());
}

/**
 * What every form of the pages posts: the session's CSRF token (checked by PageFormGuard before the form
 * is read; listed here so the validation pipe, which refuses unknown fields, lets it through). Each form
 * extends it with its own fields (`sign-in.form.ts`, `sign-up.form.ts`, …), each declared with
 * `@PageField()`.
 */
export abstract class PageFormDto {
  @PageField(200)
  csrf_token?: string;
}

/**
 * The form of a page's button that posts nothing but the CSRF token (Sign out, Rotate secret, Revoke,
 * Download my data…): read through `@PageBody(ButtonForm)` like every other form, so that a post with
 * any other field is the 400 page and changes nothing, as it is for the forms with fields.
 */
export class ButtonForm extends PageFormDto {}
