import { PageField, PageFormDto } from '../../web/forms/page-form.dto';

/**
 * The forms of views/oauth/sign-in.eta and views/oauth/second-factor.eta, posted to
 * AuthorizeController.signIn (POST /oauth/sign-in): of a pending authorization request (`transaction`)
 * or of an account page (`return_to`); the password step (`email`, `password`), the passkey's
 * (`passkey`, filled by views/scripts/passkeys.js) or the code step (`second_factor`, `code`).
 */
export class SignInForm extends PageFormDto {
  /** The sealed pending authorization request (SessionService.openTransaction). */
  @PageField()
  transaction?: string;

  /** The account page to return to (safeReturnPath). */
  @PageField()
  return_to?: string;

  @PageField()
  email?: string;

  @PageField()
  password?: string;

  /** The passkey assertion, as JSON. */
  @PageField()
  passkey?: string;

  /** The sealed password step the code completes. */
  @PageField()
  second_factor?: string;

  /** The authenticator's code or a recovery code. */
  @PageField()
  code?: string;
}
