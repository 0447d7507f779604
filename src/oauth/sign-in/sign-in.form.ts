import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PAGE_FIELD_MAX, PageFormDto } from '../../web/forms/page-form.dto';

/**
 * The forms of views/oauth/sign-in.eta and views/oauth/second-factor.eta, posted to
 * AuthorizeController.signIn (POST /oauth/sign-in): of a pending authorization request (`transaction`)
 * or of an account page (`return_to`); the password step (`email`, `password`), the passkey's
 * (`passkey`, filled by views/scripts/passkeys.js) or the code step (`second_factor`, `code`).
 */
export class SignInForm extends PageFormDto {
  /** The sealed pending authorization request (SessionService.openTransaction). */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  transaction?: string;

  /** The account page to return to (safeReturnPath). */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  return_to?: string;

  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  email?: string;

  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  password?: string;

  /** The passkey assertion, as JSON. */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  passkey?: string;

  /** The sealed password step the code completes. */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  second_factor?: string;

  /** The authenticator's code or a recovery code. */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  code?: string;
}
