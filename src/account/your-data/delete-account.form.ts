import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PAGE_FIELD_MAX, PageFormDto } from '../../web/forms/page-form.dto';

// The Delete form of views/account/data.eta, posted to AccountDataController.delete (POST /account/data/delete).
export class DeleteAccountForm extends PageFormDto {
  /** The checkbox: `on` (or `yes`) when ticked. */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  confirm?: string;

  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  current_password?: string;
}
