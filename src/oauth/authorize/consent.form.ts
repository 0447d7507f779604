import { PageField, PageFormDto } from '../../web/forms/page-form.dto';

// The form of views/oauth/consent.eta in the authorization flow, posted to AuthorizeController.consent
// (POST /oauth/consent).
export class ConsentForm extends PageFormDto {
  /** The sealed pending authorization request. */
  @PageField()
  transaction?: string;

  /** `approve` or `deny`; anything else is refused by the service with the flow's own page. */
  @PageField()
  decision?: string;
}
