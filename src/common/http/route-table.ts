import FindMyWay, { HTTPVersion } from 'find-my-way';

/**
 * Every method registered for every path, so that a request for a known path with the wrong method
 * can be answered 405 with an `Allow` header (RFC 9110 §15.5.6) instead of Fastify's plain 404.
 */
export class RouteTable {
  private readonly router = FindMyWay<HTTPVersion.V1>();
  private readonly methods = new Set<string>();

  add(method: string | string[], url: string): void {
    // Catch-all routes (the CORS preflight handler) would make every path look known.
    if (url === '*' || url === '/*') return;
    for (const m of Array.isArray(method) ? method : [method]) {
      try {
        this.router.on(m as never, url, () => undefined);
        this.methods.add(m);
      } catch {
        // A route find-my-way cannot express is skipped: it then simply answers 404, never a wrong 405.
      }
    }
  }

  /** The methods this path answers, sorted; empty for an unknown path. */
  allowedMethods(path: string): string[] {
    const allowed: string[] = [];
    for (const method of this.methods) {
      if (this.router.find(method as never, path)) allowed.push(method);
    }
    return allowed.sort();
  }
}
