import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { EnvelopedRoutes } from './envelope';

/**
 * Fastify, with the envelope of CONTRACT §1 put around each handler result as it is sent.
 *
 * The envelope used to be a global Nest interceptor; any interceptor puts every request of every route
 * through rxjs and two async-context bindings, which cost about a tenth of a cheap request. Here it costs
 * a set lookup, and routes that answer their own protocol (`@SkipEnvelope()`) pay nothing.
 */
export class EnvelopingFastifyAdapter extends FastifyAdapter {
  private enveloped?: EnvelopedRoutes;

  /** Called once the controllers are known, before the application listens. */
  useEnvelopes(routes: EnvelopedRoutes): void {
    this.enveloped = routes;
  }

  override reply(response: unknown, body: unknown, statusCode?: number) {
    const wrapped = this.enveloped ? this.enveloped.wrap(response as FastifyReply, body) : body;
    return super.reply(response as never, wrapped, statusCode);
  }
}
