import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../auth/decorators/public.decorator';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { appConfig, authConfig } from '../../config/configuration';
import { ApiErrors } from '../../common/openapi/envelope.schemas';
import { AuthorizationServerMetadataDto } from '../openapi/oauth.schemas';
import { AuthorizationServerMetadata, authorizationServerMetadata } from './discovery';

@ApiTags('oauth')
@Controller('.well-known')
@SkipEnvelope()
export class DiscoveryController {
  private readonly metadata: AuthorizationServerMetadata;

  constructor(@Inject(appConfig.KEY) app: ConfigType<typeof appConfig>, @Inject(authConfig.KEY) auth: ConfigType<typeof authConfig>) {
    this.metadata = authorizationServerMetadata(app.publicUrl, { registration: auth.dynamicRegistration === 'open' });
  }

  @Get('oauth-authorization-server')
  @Public()
  // Static for the life of the process: any cache may keep it for an hour (RFC 8414 §3).
  @Header('Cache-Control', 'public, max-age=3600')
  @ApiOperation({ summary: 'Authorization server metadata (RFC 8414)', description: 'Everything an OAuth client library needs to configure itself.' })
  @ApiOkResponse({ type: AuthorizationServerMetadataDto, headers: { 'Cache-Control': { description: 'Cacheable for an hour.', schema: { type: 'string', example: 'public, max-age=3600' } } } })
  @ApiErrors()
  metadataDocument(): AuthorizationServerMetadata {
    return this.metadata;
  }

  @Get('openid-configuration')
  @Public()
  @Header('Cache-Control', 'public, max-age=3600')
  @ApiOperation({ summary: 'OpenID Provider metadata (OpenID Connect Discovery 1.0)', description: 'The same document as `/.well-known/oauth-authorization-server`.' })
  @ApiOkResponse({ type: AuthorizationServerMetadataDto, headers: { 'Cache-Control': { description: 'Cacheable for an hour.', schema: { type: 'string', example: 'public, max-age=3600' } } } })
  @ApiErrors()
  openIdConfiguration(): AuthorizationServerMetadata {
    return this.metadata;
  }
}
