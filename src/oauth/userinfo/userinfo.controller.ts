import { applyDecorators, Controller, Get, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/decorators/public.decorator';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { OAUTH_JSON_ERRORS } from '../../common/errors/oauth-error';
import { ApiBearerErrors, UserInfoDto } from '../openapi/oauth.schemas';
import { UserClaims } from '../../oidc/user-claims';
import { UserInfoService } from './userinfo.service';

const DESCRIPTION = [
  'OpenID Connect Core §5.3. Send an access token granted with the `openid` scope as `Authorization: Bearer …` (the header only:',
  'an `access_token` parameter is `invalid_request`). Answers `{sub, …}` as plain JSON, not enveloped: `name` with `profile`,',
  '`email` and `email_verified` with `email`. Errors follow RFC 6750 §3: 401 `invalid_token` (a bare `Bearer realm="api"`',
  'challenge when no token was sent), 403 `insufficient_scope` for a valid token without `openid` (which includes every',
  'client_credentials token: it acts for no user). GET and POST answer alike. A DPoP-bound token (RFC 9449) is sent as',
  '`Authorization: DPoP …` with a `DPoP` proof for this method and URI; as Bearer, or with a missing, wrong or replayed proof, it is',
  '401 with a `DPoP` challenge (`error="invalid_token"` or `error="invalid_dpop_proof"`).',
].join(' ');

/** The route checks the token itself, to answer in RFC 6750 terms rather than the API envelope. */
const UserInfoRoute = () =>
  applyDecorators(
    Public(),
    Header('Cache-Control', 'no-store'),
    ApiBearerAuth('bearer'),
    ApiSecurity('dpop'),
    ApiOperation({ summary: 'UserInfo (OpenID Connect Core §5.3)', description: DESCRIPTION }),
    ApiOkResponse({ type: UserInfoDto }),
    ApiBearerErrors('openid'),
  );

@ApiTags('oauth')
@Controller('oauth/userinfo')
@SkipEnvelope({ errors: OAUTH_JSON_ERRORS })
export class UserInfoController {
  constructor(private readonly userInfo: UserInfoService) {}

  @Get()
  @UserInfoRoute()
  get(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<UserClaims> {
    return this.userInfo.claims(request, reply);
  }

  @Post()
  @HttpCode(200)
  @UserInfoRoute()
  post(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<UserClaims> {
    return this.userInfo.claims(request, reply);
  }
}
