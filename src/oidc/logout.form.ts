import { PageField, PageFormDto } from '../web/forms/page-form.dto';

// The form of views/logout/confirm.eta, posted to LogoutController.confirm (POST /oauth/logout). The
// request's fields ride along in hidden inputs and are checked again by LogoutService.decideConfirmed.
export class LogoutForm extends PageFormDto {
  @PageField()
  client_id?: string;

  @PageField()
  post_logout_redirect_uri?: string;

  @PageField()
  state?: string;

  /** `sign_out` or `stay`; anything else is answered by the controller in the page's own words. */
  @PageField()
  decision?: string;
}
