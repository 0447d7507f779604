import { CREDENTIAL_FIELD_MAX, PageField, PageFormDto } from '../../web/forms/page-form.dto';

// The form of views/account/confirm-access.eta, posted to ConfirmAccessController.confirm (POST /account/confirm-access):
// a passkey's assertion (filled by views/scripts/passkeys.js), else a code, else the password.
export class ConfirmAccessForm extends PageFormDto {
  /** Where to go once the proof is given (safeReturnPath). */
  @PageField()
  return_to?: string;

  @PageField(CREDENTIAL_FIELD_MAX)
  passkey?: string;

  @PageField()
  code?: string;

  @PageField()
  current_password?: string;
}
