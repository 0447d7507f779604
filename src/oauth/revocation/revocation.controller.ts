import { Controller, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ClientAuthenticatedPost, ClientCaller } from '../client-auth/client-caller';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { OAUTH_JSON_ERRORS } from '../../common/errors/oauth-error';
import { ApiOAuthErrors, CLIENT_AUTH_DESCRIPTION, TOKEN_INPUT_SCHEMA } from '../openapi/oauth.schemas';
import { RevocationService } from './revocation.service';

@ApiTags('oauth')
@Controller('oauth')
@SkipEnvelope({ errors: OAUTH_JSON_ERRORS })
export class RevocationController {
  constructor(
    private readonly caller: ClientCaller,
    private readonly revocation: RevocationService,
  ) {}

  @ClientAuthenticatedPost('revoke')
  @ApiOperation({
    summary: 'Token revocation (RFC 7009)',
    description: [
      'Revokes an access or refresh token of the calling client. Answers 200 with an empty body also for unknown tokens and for',
      'tokens of other clients (which are left alone). Revoking a refresh token revokes every token of its grant.',
      CLIENT_AUTH_DESCRIPTION,
    ].join(' '),
  })
  @ApiBody({ schema: TOKEN_INPUT_SCHEMA })
  @ApiOkResponse({ description: 'Revoked, or nothing to revoke. Empty body.' })
  @ApiOAuthErrors('invalid_request', 'invalid_client')
  async revoke(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const { form, client } = await this.caller.identify(request, reply);
    await this.revocation.revoke(form, client);
  }
}
