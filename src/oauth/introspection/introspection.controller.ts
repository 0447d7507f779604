import { Controller, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/decorators/public.decorator';
import { SkipEnvelope } from '../../common/envelope/skip-envelope.decorator';
import { ApiOAuthErrors, CLIENT_AUTH_DESCRIPTION, IntrospectionResponseDto, TOKEN_INPUT_SCHEMA } from '../openapi/oauth.schemas';
import { ClientAuthenticationService } from '../token/client-authentication';
import { ClientRateLimit } from '../token/client-rate-limit';
import { readOAuthForm } from '../token/token-form';
import { IntrospectionResponse, IntrospectionService } from './introspection.service';

@ApiTags('oauth')
@Controller('oauth')
@SkipEnvelope()
export class IntrospectionController {
  constructor(
    private readonly clientAuth: ClientAuthenticationService,
    private readonly rateLimit: ClientRateLimit,
    private readonly introspection: IntrospectionService,
  ) {}

  @Post('introspect')
  @HttpCode(200)
  @Public()
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    summary: 'Token introspection (RFC 7662)',
    description: [
      '`{"active": true, scope, client_id, sub, exp, iat, token_type}` for a valid token of the calling client, otherwise',
      '`{"active": false}` (unknown, expired, revoked, rotated, or issued to another client).',
      CLIENT_AUTH_DESCRIPTION,
    ].join(' '),
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ schema: TOKEN_INPUT_SCHEMA })
  @ApiOkResponse({ type: IntrospectionResponseDto })
  @ApiOAuthErrors('invalid_request', 'invalid_client')
  async introspect(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<IntrospectionResponse> {
    const form = readOAuthForm(request);
    const { client } = await this.clientAuth.authenticate(request, form);
    await this.rateLimit.enforce(reply, client);
    return this.introspection.introspect(form, client);
  }
}
