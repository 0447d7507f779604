import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AddressResolver, FetchDeadline, ResolvedAddress } from '../../src/clients/metadata-documents/address-resolver';

export type DocumentHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A site serving client metadata documents on loopback (docs/integrate-with-oauth.md, "Clients identified
 * by a URL"): one handler per path, and counts of the TCP connections and requests it received, so that a
 * suite can prove the server never connected to it.
 */
export class DocumentSite {
  readonly handlers = new Map<string, DocumentHandler>();
  readonly requests = new Map<string, number>();
  connections = 0;
  private server!: Server;
  port = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      this.requests.set(path, (this.requests.get(path) ?? 0) + 1);
      const handler = this.handlers.get(path);
      if (handler) handler(req, res);
      else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    });
    this.server.on('connection', () => this.connections++);
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** `http://127.0.0.1:PORT{path}`, a client_id URL under CLIENT_METADATA_ALLOW_LOOPBACK. */
  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Serves `document` (an object: JSON) at `path` with these headers. */
  serve(path: string, document: unknown, headers: Record<string, string> = {}): void {
    this.handlers.set(path, (_req, res) => {
      const body = typeof document === 'string' ? document : JSON.stringify(document);
      res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(body);
    });
  }

  fetched(path: string): number {
    return this.requests.get(path) ?? 0;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The app's resolver, answering the names a test maps (one answer each, or a list of answers used in turn). */
export function mapNames(app: NestFastifyApplication, names: Record<string, string | string[] | ResolvedAddress[][]>): { calls: string[] } {
  const calls: string[] = [];
  const turns = new Map<string, number>();
  jest.spyOn(app.get(AddressResolver), 'resolve').mockImplementation(async (hostname: string) => {
    calls.push(hostname);
    const answer = names[hostname];
    if (answer === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    if (typeof answer === 'string') return [{ address: answer, family: answer.includes(':') ? 6 : 4 }];
    if (typeof answer[0] === 'string') return (answer as string[]).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as ResolvedAddress);
    const turn = turns.get(hostname) ?? 0;
    turns.set(hostname, turn + 1);
    const list = answer as ResolvedAddress[][];
    return list[Math.min(turn, list.length - 1)];
  });
  return { calls };
}

/** The app's 5-second fetch deadline in the test's hand: each fetch's deadline waits until the test fires it. */
export function driveDeadlines(app: NestFastifyApplication): { started: number; fireAll(): void } {
  const pending: AbortController[] = [];
  const state = {
    started: 0,
    fireAll() {
      for (const controller of pending.splice(0)) controller.abort(new Error('deadline'));
    },
  };
  jest.spyOn(app.get(FetchDeadline), 'start').mockImplementation(() => {
    state.started++;
    const controller = new AbortController();
    pending.push(controller);
    const clear = () => {
      const at = pending.indexOf(controller);
      if (at >= 0) pending.splice(at, 1);
    };
    return { signal: controller.signal, clear };
  });
  return state;
}
