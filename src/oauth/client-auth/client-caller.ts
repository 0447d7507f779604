import { applyDecorators, Header, HttpCode, Injectable, Post } from '@nestjs/common';
import { ApiConsumes, ApiSecurity } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/decorators/public.decorator';
import { Client } from '../../clients/client.entity';
import { RateLimitService } from '../../rate-limit/rate-limit.service';
import { RateLimitKeys } from '../../rate-limit/rate-limit.types';
import { ClientAuthenticationService } from './client-authentication';
import { OAuthForm, readOAuthForm } from './oauth-form';

/**
 * What the client-authenticated endpoints (`/oauth/token`, `/oauth/revoke`, `/oauth/introspect`) share:
 * a form POST (the endpoint authenticates the client itself, so it is not behind the Bearer guard),
 * answered 200 and never cached (RFC 6749 §5.1).
 */
export function ClientAuthenticatedPost(path: string, status = 200) {
  return applyDecorators(
    Post(path),
    HttpCode(status),
    Public(),
    // Either HTTP Basic (`client_secret_basic`) or nothing in the headers (`client_secret_post`, `none`).
    ApiSecurity('oauth-client'),
    Header('Cache-Control', 'no-store'),
    Header('Pragma', 'no-cache'),
    ApiConsumes('application/x-www-form-urlencoded'),
  );
}

/**
 * Reads the form, authenticates the calling client and counts the call against RATE_LIMIT_CLIENT
 * (docs/using-the-api.md), on the same counter as the client's Bearer calls. Over the limit the request fails 429
 * with `Retry-After`, rendered as an RFC 6749 §5.2 body on these paths.
 */
@Injectable()
export class ClientCaller {
  constructor(
    private readonly clientAuth: ClientAuthenticationService,
    private readonly rateLimit: RateLimitService,
  ) {}

  async identify(request: FastifyRequest, reply: FastifyReply): Promise<{ form: OAuthForm; client: Client }> {
    const form = readOAuthForm(request);
    const { client } = await this.clientAuth.authenticate(request, form);
    await this.rateLimit.enforce(reply, RateLimitKeys.client(client.id), this.rateLimit.limits.client);
    return { form, client };
  }
}
