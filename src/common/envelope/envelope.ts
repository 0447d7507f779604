import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { negotiateLanguage } from '../i18n/language';
import { Paginated } from './paginated';
import { SerializedEnvelope } from './serialized-envelope';
import { SKIP_ENVELOPE } from './skip-envelope.decorator';

/** A handler's result as the body of CONTRACT §1: `{ data }`, `{ data, meta }` for a page. */
export function envelopeOf(result: unknown): unknown {
  if (result instanceof Paginated) return { data: result.items, meta: { total: result.total, limit: result.limit, offset: result.offset } };
  return { data: result };
}

/**
 * Which routes answer in the envelope: every route of every controller, unless it or its controller is
 * marked `@SkipEnvelope()`. Read once at start from the controllers' metadata, so that a request costs a
 * set lookup (see EnvelopingFastifyAdapter).
 */
export class EnvelopedRoutes {
  private readonly routes = new Set<string>();

  static of(app: INestApplicationContext): EnvelopedRoutes {
    const routes = new EnvelopedRoutes();
    const reflector = new Reflector();
    const scanner = new MetadataScanner();
    for (const wrapper of new DiscoveryService(app.get(ModulesContainer)).getControllers()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | undefined;
      if (!controller) continue;
      const prefixes = asArray(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined);
      for (const name of scanner.getAllMethodNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name] as object;
        const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (paths === undefined) continue;
        if (reflector.getAllAndOverride<boolean>(SKIP_ENVELOPE, [handler as () => void, controller])) continue;
        const method = RequestMethod[(Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod) ?? RequestMethod.GET];
        for (const prefix of prefixes) for (const path of asArray(paths)) routes.routes.add(routeKey(method, joinPath(prefix, path)));
      }
    }
    return routes;
  }

  has(method: string, url: string | undefined): boolean {
    if (url === undefined) return false;
    const m = method === 'HEAD' ? 'GET' : method;
    return this.routes.has(routeKey(m, url)) || this.routes.has(routeKey('ALL', url));
  }

  /** Wraps the result of an enveloped route and names the negotiated language; anything else passes. */
  wrap(reply: FastifyReply, body: unknown): unknown {
    const request = reply.request;
    if (!request || !this.has(request.method, request.routeOptions?.url)) return body;
    reply.header('content-language', negotiateLanguage(request.headers['accept-language']));
    reply.header('vary', 'Accept-Language');
    if (body instanceof SerializedEnvelope) {
      reply.header('content-type', 'application/json; charset=utf-8');
      return body.json;
    }
    return envelopeOf(body);
  }
}

function asArray(value: string | string[] | undefined): string[] {
  if (value === undefined) return [''];
  return Array.isArray(value) ? value : [value];
}

/** Nest's joining of a controller prefix and a method path, as Fastify names the route. */
function joinPath(prefix: string, path: string): string {
  const joined = `/${prefix}/${path}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

function routeKey(method: string, url: string): string {
  return `${method} ${url}`;
}
