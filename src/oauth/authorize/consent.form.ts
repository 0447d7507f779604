import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PAGE_FIELD_MAX, PageFormDto } from '../../web/forms/page-form.dto';

// The form of views/oauth/consent.eta in the authorization flow, posted to AuthorizeController.consent
// (POST /oauth/consent).
export class ConsentForm extends PageFormDto {
  /** The sealed pending authorization request. */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  transaction?: string;

  /** `approve` or `deny`; anything else is refused by the service with the flow's own page. */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  decision?: string;
}
