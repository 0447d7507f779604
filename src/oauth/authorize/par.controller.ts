import { Controller, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { OAUTH_JSON_ERRORS } from '../../common/errors/oauth-error';
import { AuthorizeService } from './authorize.service';
import { ApiOAuthErrors, CLIENT_AUTH_DESCRIPTION, PUSHED_REQUEST_FORM_SCHEMA, PushedAuthorizationResponseDto } from '../openapi/oauth.schemas';
import { ClientAuthenticatedPost, ClientCaller } from '../client-auth/client-caller';
import { PushedRequestsService } from './pushed-requests.service';

@ApiTags('oauth')
@Controller('oauth')
@SkipEnvelope({ errors: OAUTH_JSON_ERRORS })
export class ParController {
  constructor(
    private readonly caller: ClientCaller,
    private readonly authorize: AuthorizeService,
    private readonly pushed: PushedRequestsService,
  ) {}

  @ClientAuthenticatedPost('par', 201)
  @ApiOperation({
    summary: 'Pushed authorization request endpoint (RFC 9126)',
    description: [
      'The parameters of `/oauth/authorize`, sent directly by the client, authenticated as at the token endpoint. They are checked as',
      'authorize would check them (a registered `redirect_uri`, `response_type`, `scope`, PKCE, `response_mode`), so a mistake is an',
      'RFC 6749 §5.2 error here and not in the user\'s browser. The answer\'s `request_uri` then starts the authorization:',
      '`/oauth/authorize?client_id=…&request_uri=…`, where every other parameter is ignored. It is single use, bound to this client',
      'and expires after `expires_in` seconds (PAR_TTL). `request_uri` itself cannot be pushed (`invalid_request`), nor a `request` object.',
      'An application registered with `--require-par` must start every authorization this way.',
      CLIENT_AUTH_DESCRIPTION,
    ].join(' '),
  })
  @ApiBody({ schema: PUSHED_REQUEST_FORM_SCHEMA })
  @ApiCreatedResponse({ type: PushedAuthorizationResponseDto })
  @ApiOAuthErrors('invalid_request', 'invalid_client', 'invalid_scope', 'unsupported_response_type', 'invalid_target')
  async push(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<PushedAuthorizationResponseDto> {
    const { form, client } = await this.caller.identify(request, reply);
    const { requestUri, expiresIn } = await this.pushed.push(client.id, this.authorize.validatePushed(client, form));
    return { request_uri: requestUri, expires_in: expiresIn };
  }
}
