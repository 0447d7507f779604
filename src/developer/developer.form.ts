import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PAGE_FIELD_MAX, PageFormDto } from '../web/forms/page-form.dto';

// The form of views/developer/register.eta, posted to DeveloperController.register (POST /account/developer/applications).
export class RegisterApplicationForm extends PageFormDto {
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  name?: string;

  /** One per line. */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  redirect_uris?: string;

  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  client_type?: string;

  /** The scopes ticked: one value, or several (a checkbox per scope). */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX, { each: true })
  @IsString({ each: true })
  scope?: string | string[];

  /** Present when ticked. */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  device_flow?: string;
}

// The form of views/developer/application.eta, posted to DeveloperController.edit.
export class EditApplicationForm extends PageFormDto {
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  name?: string;

  /** One per line. */
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  redirect_uris?: string;
}

// The form of views/developer/api-keys.eta, posted to DeveloperController.createApiKey.
export class CreateApiKeyForm extends PageFormDto {
  @IsOptional()
  @MaxLength(PAGE_FIELD_MAX)
  @IsString()
  name?: string;
}
