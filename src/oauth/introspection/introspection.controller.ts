import { Controller, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ClientAuthenticatedPost, ClientCaller } from '../client-auth/client-caller';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { OAUTH_JSON_ERRORS } from '../../common/errors/oauth-error';
import { ApiOAuthErrors, CLIENT_AUTH_DESCRIPTION, IntrospectionResponseDto, TOKEN_INPUT_SCHEMA } from '../openapi/oauth.schemas';
import { IntrospectionResponse, IntrospectionService } from './introspection.service';

@ApiTags('oauth')
@Controller('oauth')
@SkipEnvelope({ errors: OAUTH_JSON_ERRORS })
export class IntrospectionController {
  constructor(
    private readonly caller: ClientCaller,
    private readonly introspection: IntrospectionService,
  ) {}

  @ClientAuthenticatedPost('introspect')
  @ApiOperation({
    summary: 'Token introspection (RFC 7662)',
    description: [
      '`{"active": true, scope, client_id, sub, exp, iat, token_type}` for a valid token of the calling client, otherwise',
      '`{"active": false}` (unknown, expired, revoked, rotated, or issued to another client).',
      'Only for confidential clients (RFC 7662 §2.1): a public client (`none`) gets 401 `invalid_client`.',
      CLIENT_AUTH_DESCRIPTION,
    ].join(' '),
  })
  @ApiBody({ schema: TOKEN_INPUT_SCHEMA })
  @ApiOkResponse({ type: IntrospectionResponseDto })
  @ApiOAuthErrors('invalid_request', 'invalid_client')
  async introspect(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<IntrospectionResponse> {
    const { form, client } = await this.caller.identify(request, reply);
    return this.introspection.introspect(form, client);
  }
}
