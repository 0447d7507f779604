import { Controller, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/decorators/public.decorator';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { ApiOAuthErrors, CLIENT_AUTH_DESCRIPTION, TOKEN_INPUT_SCHEMA } from '../openapi/oauth.schemas';
import { ClientAuthenticationService } from '../token/client-authentication';
import { ClientRateLimit } from '../token/client-rate-limit';
import { readOAuthForm } from '../token/token-form';
import { RevocationService } from './revocation.service';

@ApiTags('oauth')
@Controller('oauth')
@SkipEnvelope()
export class RevocationController {
  constructor(
    private readonly clientAuth: ClientAuthenticationService,
    private readonly rateLimit: ClientRateLimit,
    private readonly revocation: RevocationService,
  ) {}

  @Post('revoke')
  @HttpCode(200)
  @Public()
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    summary: 'Token revocation (RFC 7009)',
    description: [
      'Revokes an access or refresh token of the calling client. Answers 200 with an empty body also for unknown tokens and for',
      'tokens of other clients (which are left alone). Revoking a refresh token revokes every token of its grant.',
      CLIENT_AUTH_DESCRIPTION,
    ].join(' '),
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ schema: TOKEN_INPUT_SCHEMA })
  @ApiOkResponse({ description: 'Revoked, or nothing to revoke. Empty body.' })
  @ApiOAuthErrors('invalid_request', 'invalid_client')
  async revoke(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const form = readOAuthForm(request);
    const { client } = await this.clientAuth.authenticate(request, form);
    await this.rateLimit.enforce(reply, client);
    await this.revocation.revoke(form, client);
  }
}
