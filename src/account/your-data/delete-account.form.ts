import { PageField, PageFormDto } from '../../web/forms/page-form.dto';

// The Delete form of views/account/data.eta, posted to AccountDataController.delete (POST /account/data/delete).
export class DeleteAccountForm extends PageFormDto {
  /** The checkbox: `on` (or `yes`) when ticked. */
  @PageField()
  confirm?: string;

  @PageField()
  current_password?: string;
}
