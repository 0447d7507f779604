import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PAGE_FIELD_MAX, PageFormDto } from '../web/forms/page-form.dto';

// The form of views/logout/confirm.eta, posted to LogoutController.confirm (POST /oauth/logout). The
// request's fields ride along in hidden inputs and are checked again by LogoutService.decideConfirmed.
export class LogoutForm extends PageFormDto {
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  client_id?: string;

  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  post_logout_redirect_uri?: string;

  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  state?: string;

  /** `sign_out` or `stay`; anything else is answered by the controller in the page's own words. */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  decision?: string;
}
