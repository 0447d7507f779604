// The form of views/account/mail-link.eta, posted to ConfirmNewEmailController (POST /account/confirm-new-email,
// /account/cancel-email-change, /account/restore-email).
import { PageField, PageFormDto } from '../../web/forms/page-form.dto';

export class MailLinkForm extends PageFormDto {
  /** The mail link's token. */
  @PageField()
  token?: string;
}
