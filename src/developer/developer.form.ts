import { PAGE_FIELD_MAX, PageField, PageFormDto } from '../web/forms/page-form.dto';

// The form of views/developer/register.eta, posted to DeveloperController.register (POST /account/developer/applications).
export class RegisterApplicationForm extends PageFormDto {
  @PageField()
  name?: string;

  /** One per line. */
  @PageField()
  redirect_uris?: string;

  @PageField()
  client_type?: string;

  /** The scopes ticked: one value, or several (a checkbox per scope). */
  @PageField(PAGE_FIELD_MAX, { each: true })
  scope?: string | string[];

  /** Present when ticked. */
  @PageField()
  device_flow?: string;
}

// The form of views/developer/application.eta, posted to DeveloperController.edit.
export class EditApplicationForm extends PageFormDto {
  @PageField()
  name?: string;

  /** One per line. */
  @PageField()
  redirect_uris?: string;
}

// The form of views/developer/api-keys.eta, posted to DeveloperController.createApiKey.
export class CreateApiKeyForm extends PageFormDto {
  @PageField()
  name?: string;
}
