// The form of views/account/sign-up.eta, posted to SignUpController.submit (POST /account/sign-up).
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PAGE_FIELD_MAX, PageFormDto } from '../../web/forms/page-form.dto';

export class SignUpForm extends PageFormDto {
  /** Checked by the service (missing, too long, control characters): its problems are said on the form. */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  name?: string;

  /** Checked by the service (src/common/text/email-address.ts). */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  email?: string;

  /** Checked by the service (passwordProblem). */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  password?: string;
}

// The form of views/account/confirm-sign-up.eta, posted to SignUpController.confirm (POST /account/confirm-email).
export class ConfirmSignUpForm extends PageFormDto {
  /** The mail link's token (mail-tokens.ts reads it). */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  token?: string;

  /** The password chosen at sign-up. */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  password?: string;
}
