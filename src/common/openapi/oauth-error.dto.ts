import { ApiProperty } from '@nestjs/swagger';
import { OAUTH_ERROR_CODES } from '../errors/oauth-error';

/** The body of an OAuth error (RFC 6749 §5.2), as the OpenAPI reference shows it for every endpoint that answers one. */
export class OAuthErrorDto {
  @ApiProperty({ enum: OAUTH_ERROR_CODES, example: 'invalid_grant', description: 'RFC 6749 §5.2 error code.' })
  error: string;

  @ApiProperty({ example: 'The authorization code has expired.', description: 'English, for developers.' })
  error_description: string;
}
