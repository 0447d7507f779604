import { Controller, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ClientAuthenticatedPost, ClientCaller } from '../client-auth/client-caller';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { OAUTH_JSON_ERRORS } from '../../common/errors/oauth-error';
import { ApiOAuthErrors, CLIENT_AUTH_DESCRIPTION, TOKEN_FORM_SCHEMA, TokenResponseDto } from '../openapi/oauth.schemas';
import { DpopProofError } from '../../auth/dpop/dpop-proof';
import { DpopService } from '../../auth/dpop/dpop.service';
import { OAuthError } from '../../common/errors/oauth-error';
import { TokenResponse, TokenService } from './token.service';

@ApiTags('oauth')
@Controller('oauth')
@SkipEnvelope({ errors: OAUTH_JSON_ERRORS })
export class TokenController {
  constructor(
    private readonly caller: ClientCaller,
    private readonly tokens: TokenService,
    private readonly dpop: DpopService,
  ) {}

  @ClientAuthenticatedPost('token')
  @ApiOperation({
    summary: 'Token endpoint (RFC 6749 §3.2)',
    description: [
      '`grant_type=authorization_code` (with `code`, `redirect_uri` and `code_verifier`), `grant_type=refresh_token` (with',
      '`refresh_token` and an optional narrower `scope`) or `grant_type=client_credentials` (RFC 6749 §4.4; confidential clients',
      'only, `unauthorized_client` otherwise; optional `scope` among the registered scopes that need no user, all of them by',
      'default; `openid`, `profile` and `email` are `invalid_scope`; no refresh token; the token acts for the client alone, so',
      '`/me` answers it 403 and introspection shows no `sub`). Codes are single use: a second redemption fails `invalid_grant` and',
      'revokes every token issued from the code. Refresh tokens rotate: presenting a retired one revokes its whole family, except',
      'that with REFRESH_TOKEN_GRACE_PERIOD set the most recently rotated one may be presented again by its client within that',
      'many seconds of its rotation, for a new pair in the same family. DPoP (RFC 9449): a `DPoP` header holding a proof for',
      '`POST {issuer}/oauth/token` binds the access token to the proof\'s key (`token_type: "DPoP"`) and, for a public client, the',
      'refresh token too, which is then refreshed only with a proof of that key; a bad or replayed proof is 400 `invalid_dpop_proof`.',
      '`grant_type=urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 §3.4, with `device_code`; clients registered with',
      '`--device-flow` only, `unauthorized_client` otherwise) answers `authorization_pending` until the user decides, `slow_down`',
      'when polled faster than the interval (which then grows by 5 seconds), `access_denied`, `expired_token`, and once approved the',
      'tokens of the code flow, once; another client\'s or a used device code is `invalid_grant`.',
      CLIENT_AUTH_DESCRIPTION,
    ].join(' '),
  })
  @ApiBody({ schema: TOKEN_FORM_SCHEMA })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiOAuthErrors(
    'invalid_request',
    'invalid_client',
    'invalid_grant',
    'unauthorized_client',
    'unsupported_grant_type',
    'invalid_scope',
    'authorization_pending',
    'slow_down',
    'access_denied',
    'expired_token',
    'invalid_dpop_proof',
    'invalid_target',
  )
  async token(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<TokenResponse> {
    const { form, client } = await this.caller.identify(request, reply);
    const jkt = await this.dpopKey(request);
    return this.tokens.grant(form, client, { ip: request.ip, jkt });
  }

  /**
   * RFC 9449 §5: a `DPoP` header binds the tokens to its key. A proof that fails is refused before the
   * grant is looked at, so a code or refresh token presented with it stays as it was.
   */
  private async dpopKey(request: FastifyRequest): Promise<string | null> {
    try {
      return await this.dpop.tokenRequestKey(request);
    } catch (error) {
      if (error instanceof DpopProofError) throw new OAuthError('invalid_dpop_proof', error.message);
      throw error;
    }
  }
}
