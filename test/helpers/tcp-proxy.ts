import { AddressInfo, createServer, Server, Socket, connect } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 between the service and a shared server (PostgreSQL), so that a suite can
 * take the database away from one service without stopping the server every other run uses.
 *
 * - `cut()`: every open connection is reset and new ones are refused (the server "went away").
 * - `blackhole()`: connections stay open and new ones are accepted, but no byte is forwarded either way
 *   (a network partition: nothing answers, nothing fails fast).
 * - `restore()`: forwarding resumes; connections opened from then on reach the server again.
 */
export class TcpProxy {
  private server?: Server;
  private readonly pairs = new Set<{ client: Socket; upstream: Socket }>();
  private mode: 'open' | 'cut' | 'blackhole' = 'open';
  port = 0;

  constructor(
    private readonly target: { host: string; port: number },
  ) {}

  async start(port = 0): Promise<number> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  /** Resets every connection and refuses new ones (the listener is closed: ECONNREFUSED). */
  async cut(): Promise<void> {
    this.mode = 'cut';
    // The listener stops at once; its close completes only when every connection has ended, so they are
    // reset first (a connection the service keeps busy, such as the mail sender's, never goes idle).
    const closed = new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
    this.dropAll();
    await closed;
  }

  /** Keeps every connection and accepts new ones, but forwards nothing. */
  blackhole(): void {
    this.mode = 'blackhole';
    for (const { client, upstream } of this.pairs) {
      client.pause();
      upstream.pause();
    }
  }

  /** Forwards again: a cut proxy listens again on the same port; a black hole drops what it held. */
  async restore(): Promise<void> {
    if (this.mode === 'blackhole') this.dropAll();
    this.mode = 'open';
    if (!this.server) await this.start(this.port);
  }

  async close(): Promise<void> {
    this.mode = 'cut';
    this.dropAll();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }

  get connections(): number {
    return this.pairs.size;
  }

  private accept(client: Socket): void {
    if (this.mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(this.target.port, this.target.host);
    const pair = { client, upstream };
    this.pairs.add(pair);
    const drop = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.on('data', (chunk) => {
      if (this.mode === 'open') upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (this.mode === 'open') client.write(chunk);
    });
  }

  private dropAll(): void {
    for (const { client, upstream } of [...this.pairs]) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    this.pairs.clear();
  }
}

/** Host and port of a `postgres://` URL, and the same URL pointed at another port on 127.0.0.1. */
export function viaProxy(databaseUrl: string, proxyPort: number): { target: { host: string; port: number }; url: string } {
  const url = new URL(databaseUrl);
  const target = { host: url.hostname || '127.0.0.1', port: Number(url.port || 5432) };
  url.hostname = '127.0.0.1';
  url.port = String(proxyPort);
  return { target, url: url.toString() };
}
