import { IsOptional, IsString, MaxLength } from 'class-validator';
import { CREDENTIAL_FIELD_MAX, PAGE_FIELD_MAX, PageFormDto } from '../../web/forms/page-form.dto';

// The form of views/account/confirm-access.eta, posted to ConfirmAccessController.confirm (POST /account/confirm-access):
// a passkey's assertion (filled by views/scripts/passkeys.js), else a code, else the password.
export class ConfirmAccessForm extends PageFormDto {
  /** Where to go once the proof is given (safeReturnPath). */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  return_to?: string;

  @IsOptional()
  @MaxLength(CREDENTIAL_FIELD_MAX)
  @IsString()
  passkey?: string;

  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  code?: string;

  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  current_password?: string;
}
