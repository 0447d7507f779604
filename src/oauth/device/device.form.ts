import { PageField, PageFormDto } from '../../web/forms/page-form.dto';

// The form of views/device/code.eta, posted to DeviceController.submit (POST /device).
export class DeviceCodeForm extends PageFormDto {
  /** As typed (RFC 8628 §6.1): the service normalises it. */
  @PageField()
  user_code?: string;
}

// The form of views/oauth/consent.eta in the device flow, posted to DeviceController.decide (POST /device/consent).
export class DeviceConsentForm extends PageFormDto {
  @PageField()
  user_code?: string;

  /** `approve` or `deny`; anything else is refused by the service with the flow's own page. */
  @PageField()
  decision?: string;
}
