import FindMyWay, { HTTPVersion } from 'find-my-way';
import { ErrorFormat } from '../errors/error-format';

/**
 * Every route the server answers, filled as Fastify registers them, with the error format each declared
 * (see ErrorFormat). It answers the questions asked when no handler can: which methods a path allows (a
 * wrong method is 405 with `Allow`, RFC 9110 §15.5.6, instead of Fastify's plain 404), and in which
 * format a path's failures are written when the request failed before or without reaching its route.
 */
export class RouteTable {
  private readonly router = FindMyWay<HTTPVersion.V1>();
  /**
   * The same routes, for naming the route of a request the router refused (a path parameter over its
   * length limit, or one whose percent-encoding is invalid): such a request is answered 400 in the format
   * of the route it was meant for (the registration management endpoint's RFC JSON, say), not the envelope.
   */
  private readonly lenient = FindMyWay<HTTPVersion.V1>({ maxParamLength: Number.MAX_SAFE_INTEGER });
  private readonly methods = new Set<string>();
  private formats = new Map<string, ErrorFormat>();

  add(method: string | string[], url: string): void {
    // Catch-all routes (the CORS preflight handler) would make every path look known.
    if (url === '*' || url === '/*') return;
    for (const m of Array.isArray(method) ? method : [method]) {
      try {
        this.router.on(m as never, url, () => undefined, { url });
        this.lenient.on(m as never, url, () => undefined, { url });
        this.methods.add(m);
      } catch {
        // A route find-my-way cannot express is skipped: it then simply answers 404, never a wrong 405.
      }
    }
  }

  /** The error formats the controllers declare, by `METHOD url` as Fastify names the route (set once at start). */
  useErrorFormats(formats: Map<string, ErrorFormat>): void {
    this.formats = formats;
  }

  /** The methods this path answers, sorted; empty for an unknown path. */
  allowedMethods(path: string): string[] {
    const allowed: string[] = [];
    for (const method of this.methods) {
      if (this.find(method, path)) allowed.push(method);
    }
    return allowed.sort();
  }

  /**
   * The error format of the route a request reached (`routeUrl` is Fastify's name of it), or, when it
   * reached none, of the routes at its path under any method. Undefined: the API's envelope.
   *
   * Only a path that spells the route is taken as naming it: the router also forgives what follows a `;`
   * or a `#` (neither belongs in a request path, RFC 9110 §4.1) and percent-encoded letters, and such a
   * request is answered in the envelope, like any malformed one.
   */
  errorFormatOf(method: string, routeUrl: string | undefined, path: string): ErrorFormat | undefined {
    if (this.formats.size === 0) return undefined;
    if (routeUrl !== undefined) return spells(path, routeUrl) ? this.formatOf(method, routeUrl) : undefined;
    for (const m of this.methods) {
      const url = this.find(m, path) ?? this.findLenient(m, path);
      const format = url === undefined || !spells(path, url) ? undefined : this.formatOf(m, url);
      if (format) return format;
    }
    return undefined;
  }

  private formatOf(method: string, url: string): ErrorFormat | undefined {
    return this.formats.get(`${method === 'HEAD' ? 'GET' : method} ${url}`) ?? this.formats.get(`ALL ${url}`);
  }

  /** The route a path names when its escapes are read as plain characters and its parameters may be of any length. */
  private findLenient(method: string, path: string): string | undefined {
    try {
      return (this.lenient.find(method as never, path.replace(/%[0-9A-Fa-f]{0,2}/g, '_'))?.store as { url: string } | undefined)?.url;
    } catch {
      return undefined;
    }
  }

  private find(method: string, path: string): string | undefined {
    try {
      return (this.router.find(method as never, path)?.store as { url: string } | undefined)?.url;
    } catch {
      return undefined;
    }
  }
}

/** Whether `path` is the route `url` as written: the same text for a static route. */
function spells(path: string, url: string): boolean {
  return url.includes(':') || url.includes('*') ? !/[;#]/.test(path) : path === url;
}
