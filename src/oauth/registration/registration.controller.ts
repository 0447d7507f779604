import { applyDecorators, Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../../auth/decorators/public.decorator';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { OAUTH_JSON_ERRORS } from '../../common/errors/oauth-error';
import { ApiRegistrationErrors, CLIENT_METADATA_SCHEMA, RegisteredClientDto } from '../openapi/registration.schemas';
import { RegisteredClientMetadata } from './client-metadata';
import { ClientRegistrationService, SentBody } from './client-registration.service';

/** The answers hold credentials: never cached (RFC 7591 §3.2.1, RFC 6749 §5.1). */
const RegistrationRoute = () => applyDecorators(Public(), Header('Cache-Control', 'no-store'), Header('Pragma', 'no-cache'));

const CLIENT_ID_PARAM = ApiParam({ name: 'client_id', description: 'The client\'s id, as in `registration_client_uri`.', example: 'sp_client_8Jx2kQ0m9vZr4tYw1aBcDe' });

/** The body as sent, with its media type: the service reads it only once the request may register or update. */
function sentBody(request: FastifyRequest, body: unknown): SentBody {
  return { contentType: request.headers['content-type'], value: body };
}

/**
 * Dynamic client registration (RFC 7591) and management (RFC 7592): docs/integrate-with-oauth.md,
 * "Register a client dynamically". Answers and errors in their RFCs' JSON, never the API envelope.
 */
@ApiTags('oauth')
@Controller('oauth/register')
@SkipEnvelope({ errors: OAUTH_JSON_ERRORS })
export class RegistrationController {
  constructor(private readonly registrations: ClientRegistrationService) {}

  @Post()
  @HttpCode(201)
  @RegistrationRoute()
  @ApiOperation({
    summary: 'Dynamic client registration (RFC 7591)',
    description: [
      'A client registers itself, with no account: a JSON object of client metadata. It is checked under the rules of the developer portal',
      '(redirect URIs, name, scopes) and starts **unverified** (its consent page says so). The answer holds `client_id`, the `client_secret` of a',
      'confidential client (shown once), and the `registration_access_token` with which the client reads, replaces and deletes its registration at',
      '`registration_client_uri` (RFC 7592). REGISTRATION_MAX_PER_HOUR registrations per IP (an IPv6 address by its /64) an hour; closed (403) when',
      'DYNAMIC_REGISTRATION is `closed`. A client no user authorized within 30 days is removed.',
    ].join(' '),
  })
  @ApiConsumes('application/json')
  @ApiBody({ schema: CLIENT_METADATA_SCHEMA })
  @ApiCreatedResponse({ type: RegisteredClientDto, description: 'Registered. `client_secret` only for a confidential client.' })
  @ApiRegistrationErrors('register')
  register(@Req() request: FastifyRequest, @Body() body: unknown): Promise<RegisteredClientMetadata> {
    return this.registrations.register(sentBody(request, body), request.ip);
  }

  @Get(':client_id')
  @RegistrationRoute()
  @ApiBearerAuth('registration')
  @ApiOperation({
    summary: 'Read a dynamic registration (RFC 7592 §2.1)',
    description: 'With the registration access token as `Authorization: Bearer …`. The client secret is not in it (it is stored hashed).',
  })
  @CLIENT_ID_PARAM
  @ApiOkResponse({ type: RegisteredClientDto })
  @ApiRegistrationErrors('read')
  read(@Req() request: FastifyRequest, @Param('client_id') clientId: string): Promise<RegisteredClientMetadata> {
    return this.registrations.read(clientId, request.headers.authorization);
  }

  @Put(':client_id')
  @RegistrationRoute()
  @ApiBearerAuth('registration')
  @ApiOperation({
    summary: 'Replace a dynamic registration (RFC 7592 §2.2)',
    description: [
      'Every field, as at registration (what is left out returns to its default), plus `client_id`. A `client_secret`, when sent, must be the',
      'current one; the secret and the registration access token stay. A public client stays public and a confidential one confidential.',
      'The fields the server issued (`registration_access_token`, `registration_client_uri`, `client_id_issued_at`, `client_secret_expires_at`) are ignored.',
    ].join(' '),
  })
  @CLIENT_ID_PARAM
  @ApiConsumes('application/json')
  @ApiBody({ schema: { ...CLIENT_METADATA_SCHEMA, required: ['client_id', 'redirect_uris', 'client_name'] } })
  @ApiOkResponse({ type: RegisteredClientDto })
  @ApiRegistrationErrors('update')
  update(@Req() request: FastifyRequest, @Param('client_id') clientId: string, @Body() body: unknown): Promise<RegisteredClientMetadata> {
    return this.registrations.update(clientId, request.headers.authorization, sentBody(request, body));
  }

  @Delete(':client_id')
  @HttpCode(204)
  @RegistrationRoute()
  @ApiBearerAuth('registration')
  @ApiOperation({
    summary: 'Delete a dynamic registration (RFC 7592 §2.3)',
    description: 'The client, its codes, tokens and consents are deleted; its tokens and its registration access token are refused from then on.',
  })
  @CLIENT_ID_PARAM
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiRegistrationErrors('delete')
  async remove(@Req() request: FastifyRequest, @Param('client_id') clientId: string): Promise<void> {
    await this.registrations.remove(clientId, request.headers.authorization);
  }
}
