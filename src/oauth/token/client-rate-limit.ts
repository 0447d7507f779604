import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Client } from '../../clients/client.entity';
import { RateLimitService } from '../../rate-limit/rate-limit.service';
import { RateLimitKeys } from '../../rate-limit/rate-limit.types';

/**
 * RATE_LIMIT_CLIENT requests a minute per OAuth client (CONTRACT §2) on the client-authenticated
 * endpoints, counted after client authentication on the same counter as the client's Bearer calls.
 * Sets the RateLimit-* headers; over the limit the request fails 429 with `Retry-After` (rendered as
 * an RFC 6749 §5.2 body on these paths).
 */
@Injectable()
export class ClientRateLimit {
  constructor(private readonly rateLimit: RateLimitService) {}

  async enforce(reply: FastifyReply, client: Client): Promise<void> {
    await this.rateLimit.enforce(reply, RateLimitKeys.client(client.id), this.rateLimit.limits.client);
  }
}
