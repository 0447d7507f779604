// The form of views/account/mail-link.eta, posted to ConfirmNewEmailController (POST /account/confirm-new-email,
// /account/cancel-email-change, /account/restore-email).
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PAGE_FIELD_MAX, PageFormDto } from '../../web/forms/page-form.dto';

export class MailLinkForm extends PageFormDto {
  /** The mail link's token. */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  token?: string;
}
