import { PageField, PageFormDto } from '../../web/forms/page-form.dto';

// The Revoke access form of views/account/apps.eta, posted to ConnectedAppsController.revoke (POST /account/apps/revoke).
export class RevokeAppForm extends PageFormDto {
  /** An application the user granted; anything else is answered 403 (not yours). */
  @PageField()
  client_id?: string;
}
