import { Controller, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ClientAuthenticatedPost, ClientCaller } from './client-caller';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { ApiOAuthErrors, CLIENT_AUTH_DESCRIPTION, TOKEN_FORM_SCHEMA, TokenResponseDto } from '../openapi/oauth.schemas';
import { TokenResponse, TokenService } from './token.service';

@ApiTags('oauth')
@Controller('oauth')
@SkipEnvelope()
export class TokenController {
  constructor(
    private readonly caller: ClientCaller,
    private readonly tokens: TokenService,
  ) {}

  @ClientAuthenticatedPost('token')
  @ApiOperation({
    summary: 'Token endpoint (RFC 6749 §3.2)',
    description: [
      '`grant_type=authorization_code` (with `code`, `redirect_uri` and `code_verifier`) or `grant_type=refresh_token` (with',
      '`refresh_token` and an optional narrower `scope`). Codes are single use: a second redemption fails `invalid_grant` and',
      'revokes every token issued from the code. Refresh tokens rotate: presenting a retired one revokes its whole family.',
      CLIENT_AUTH_DESCRIPTION,
    ].join(' '),
  })
  @ApiBody({ schema: TOKEN_FORM_SCHEMA })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiOAuthErrors('invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type', 'invalid_scope')
  async token(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<TokenResponse> {
    const { form, client } = await this.caller.identify(request, reply);
    return this.tokens.grant(form, client);
  }
}
