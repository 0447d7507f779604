import { IsOptional, IsString, MaxLength } from 'class-validator';

/** The longest value a field of a page takes, unless its form says less: well above any real entry. */
export const PAGE_FIELD_MAX = 8192;

/** A passkey's credential or assertion (WebAuthn JSON), which carries the authenticator's data and certificates. */
export const CREDENTIAL_FIELD_MAX = 65_536;

/**
 * What every form of the pages posts: the session's CSRF token (checked by PageFormGuard before the form
 * is read; listed here so the validation pipe, which refuses unknown fields, lets it through). Each form
 * extends it with its own fields (`sign-in.form.ts`, `sign-up.form.ts`, …).
 */
export abstract class PageFormDto {
  @IsOptional()
  @MaxLength(200)
  @IsString()
  csrf_token?: string;
}
