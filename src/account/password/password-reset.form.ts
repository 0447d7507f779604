import { PageField, PageFormDto } from '../../web/forms/page-form.dto';

// The form of views/account/forgot-password.eta, posted to PasswordResetController.request (POST /account/forgot-password).
export class ForgotPasswordForm extends PageFormDto {
  /** Checked by the service: a value that is not an address is said so on the form. */
  @PageField()
  email?: string;
}

// The form of views/account/reset-password.eta, posted to PasswordResetController.reset (POST /account/reset-password).
export class ResetPasswordForm extends PageFormDto {
  /** The mail link's token. */
  @PageField()
  token?: string;

  /** The new password, checked by the service (passwordProblem). */
  @PageField()
  password?: string;
}
