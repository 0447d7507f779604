import { Controller, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/decorators/public.decorator';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { ApiOAuthErrors, CLIENT_AUTH_DESCRIPTION, TOKEN_FORM_SCHEMA, TokenResponseDto } from '../openapi/oauth.schemas';
import { ClientAuthenticationService } from './client-authentication';
import { ClientRateLimit } from './client-rate-limit';
import { readOAuthForm } from './token-form';
import { TokenResponse, TokenService } from './token.service';

@ApiTags('oauth')
@Controller('oauth')
@SkipEnvelope()
export class TokenController {
  constructor(
    private readonly clientAuth: ClientAuthenticationService,
    private readonly rateLimit: ClientRateLimit,
    private readonly tokens: TokenService,
  ) {}

  @Post('token')
  @HttpCode(200)
  @Public()
  // RFC 6749 §5.1: token responses must not be cached.
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    summary: 'Token endpoint (RFC 6749 §3.2)',
    description: [
      '`grant_type=authorization_code` (with `code`, `redirect_uri` and `code_verifier`) or `grant_type=refresh_token` (with',
      '`refresh_token` and an optional narrower `scope`). Codes are single use: a second redemption fails `invalid_grant` and',
      'revokes every token issued from the code. Refresh tokens rotate: presenting a retired one revokes its whole family.',
      CLIENT_AUTH_DESCRIPTION,
    ].join(' '),
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ schema: TOKEN_FORM_SCHEMA })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiOAuthErrors('invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type', 'invalid_scope')
  async token(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<TokenResponse> {
    const form = readOAuthForm(request);
    const { client } = await this.clientAuth.authenticate(request, form);
    await this.rateLimit.enforce(reply, client);
    return this.tokens.grant(form, client);
  }
}
