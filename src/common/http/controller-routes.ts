import type { INestApplicationContext } from '@nestjs/common';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { ErrorFormat } from '../errors/error-format';
import { SKIP_ENVELOPE, SkipEnvelopeOptions } from '../envelope/skip-envelope.decorator';

/** One route of a controller: its method, its URL as Fastify names it, and where it is declared. */
export interface ControllerRoute {
  method: string;
  url: string;
  handler: object;
  controller: new (...args: never[]) => object;
}

/** Every route of every controller of the application, read from the controllers' metadata. */
export function controllerRoutes(app: INestApplicationContext): ControllerRoute[] {
  const routes: ControllerRoute[] = [];
  const scanner = new MetadataScanner();
  for (const wrapper of new DiscoveryService(app.get(ModulesContainer)).getControllers()) {
    const controller = wrapper.metatype as ControllerRoute['controller'] | undefined;
    if (!controller) continue;
    const prefixes = asArray(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined);
    for (const name of scanner.getAllMethodNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name] as object;
      const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (paths === undefined) continue;
      const method = RequestMethod[(Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod) ?? RequestMethod.GET];
      for (const prefix of prefixes) for (const path of asArray(paths)) routes.push({ method, url: joinPath(prefix, path), handler, controller });
    }
  }
  return routes;
}

/**
 * The error format each route declares with `@SkipEnvelope({ errors })` on its handler or controller,
 * by `METHOD url`; routes that declare none answer failures in the envelope and are not listed.
 */
export function errorFormatsOf(app: INestApplicationContext): Map<string, ErrorFormat> {
  const reflector = new Reflector();
  const formats = new Map<string, ErrorFormat>();
  for (const route of controllerRoutes(app)) {
    const options = reflector.getAllAndOverride<SkipEnvelopeOptions | undefined>(SKIP_ENVELOPE, [route.handler as () => void, route.controller]);
    if (options?.errors) formats.set(`${route.method} ${route.url}`, options.errors);
  }
  return formats;
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
