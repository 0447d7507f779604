import { CREDENTIAL_FIELD_MAX, PageField, PageFormDto } from '../../web/forms/page-form.dto';

// The form of views/account/security/change-password.eta, posted to SecurityController.changePassword (POST /account/security/password).
export class ChangePasswordForm extends PageFormDto {
  @PageField()
  current_password?: string;

  /** Checked by the service (passwordProblem). */
  @PageField()
  new_password?: string;
}

// The form of views/account/security/change-email.eta, posted to SecurityController.changeEmail (POST /account/security/email).
export class ChangeEmailForm extends PageFormDto {
  @PageField()
  current_password?: string;

  /** Checked by the service (src/common/text/email-address.ts). */
  @PageField()
  new_email?: string;
}

// The Add a passkey form of views/account/security/passkeys.eta, posted to SecurityController.addPasskey (POST /account/security/passkeys).
export class AddPasskeyForm extends PageFormDto {
  /** The credential views/scripts/passkeys.js made (WebAuthn JSON). */
  @PageField(CREDENTIAL_FIELD_MAX)
  credential?: string;

  /** Checked by the service (passkey name rule). */
  @PageField()
  name?: string;
}

// The Rename form of views/account/security/passkeys.eta, posted to SecurityController.renamePasskey.
export class RenamePasskeyForm extends PageFormDto {
  /** Checked by the service (passkey name rule). */
  @PageField()
  name?: string;
}

// The Remove form of views/account/security/passkeys.eta and the Turn off form of views/account/security/authenticator.eta
// (SecurityController.removePasskey, SecurityController.turnOff): a current code or the password.
export class ProofForm extends PageFormDto {
  @PageField()
  code?: string;

  @PageField()
  password?: string;
}

// The Confirm form of views/account/security/authenticator.eta, posted to SecurityController.confirm (POST /account/security/authenticator/confirm).
export class ConfirmAuthenticatorForm extends PageFormDto {
  @PageField()
  code?: string;
}
