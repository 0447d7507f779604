import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../auth/decorators/public.decorator';
import { ProtectedResources, ResourceName } from '../../auth/protected-resources';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { ApiErrors } from '../../common/openapi/envelope.schemas';
import { appConfig } from '../../config/configuration';
import { ProtectedResourceMetadataDto } from '../openapi/oauth.schemas';

/** RFC 9728 §2: what a client needs to get a token for one resource. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: string[];
  resource_name: string;
  resource_documentation: string;
  dpop_bound_access_tokens_required: boolean;
}

const CACHE = { 'Cache-Control': { description: 'Cacheable for an hour.', schema: { type: 'string', example: 'public, max-age=3600' } } };

/**
 * RFC 9728 protected-resource metadata of the platform's two resources, at the addresses the RFC's §3.1
 * makes from their identifiers. A client that met a 401 follows its `resource_metadata` here, and from
 * `authorization_servers` to the issuer's RFC 8414 metadata (docs/integrate-with-oauth.md, "Resource
 * indicators").
 */
@ApiTags('oauth')
@Controller('.well-known/oauth-protected-resource')
@SkipEnvelope()
export class ProtectedResourceController {
  private readonly documents: Record<ResourceName, ProtectedResourceMetadata>;

  constructor(@Inject(appConfig.KEY) app: ConfigType<typeof appConfig>, resources: ProtectedResources) {
    const document = (name: ResourceName, title: string): ProtectedResourceMetadata => ({
      resource: resources.identifier(name),
      authorization_servers: [app.publicUrl],
      // The scopes the resource's routes (or, for /mcp, its tools) need; openid and email are for sign-in.
      scopes_supported: ['profile', 'read:startups'],
      bearer_methods_supported: ['header'],
      resource_name: `${app.platformName} ${title}`,
      resource_documentation: `${app.publicUrl}/docs`,
      dpop_bound_access_tokens_required: false,
    });
    this.documents = { api: document('api', 'public API'), mcp: document('mcp', 'MCP endpoint') };
  }

  @Get('api/public/v1')
  @Public()
  // Static for the life of the process, like the authorization server's metadata.
  @Header('Cache-Control', 'public, max-age=3600')
  @ApiOperation({ summary: 'Protected-resource metadata of the public API (RFC 9728)', description: 'The resource `{PUBLIC_URL}/api/public/v1`: its authorization server and scopes. Every 401 of the API names this address in `WWW-Authenticate: Bearer resource_metadata="…"`.' })
  @ApiOkResponse({ type: ProtectedResourceMetadataDto, headers: CACHE })
  @ApiErrors()
  api(): ProtectedResourceMetadata {
    return this.documents.api;
  }

  @Get('mcp')
  @Public()
  @Header('Cache-Control', 'public, max-age=3600')
  @ApiOperation({ summary: 'Protected-resource metadata of the MCP endpoint (RFC 9728)', description: 'The resource `{PUBLIC_URL}/mcp`: a token for it is asked with `resource={PUBLIC_URL}/mcp` (RFC 8707) and is refused by the public API.' })
  @ApiOkResponse({ type: ProtectedResourceMetadataDto, headers: CACHE })
  @ApiErrors()
  mcp(): ProtectedResourceMetadata {
    return this.documents.mcp;
  }
}
