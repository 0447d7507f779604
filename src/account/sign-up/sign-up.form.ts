// The form of views/account/sign-up.eta, posted to SignUpController.submit (POST /account/sign-up).
import { PageField, PageFormDto } from '../../web/forms/page-form.dto';

export class SignUpForm extends PageFormDto {
  /** Checked by the service (missing, too long, control characters): its problems are said on the form. */
  @PageField()
  name?: string;

  /** Checked by the service (src/common/text/email-address.ts). */
  @PageField()
  email?: string;

  /** Checked by the service (passwordProblem). */
  @PageField()
  password?: string;
}

// The form of views/account/confirm-sign-up.eta, posted to SignUpController.confirm (POST /account/confirm-email).
export class ConfirmSignUpForm extends PageFormDto {
  /** The mail link's token (mail-tokens.ts reads it). */
  @PageField()
  token?: string;

  /** The password chosen at sign-up. */
  @PageField()
  password?: string;
}
