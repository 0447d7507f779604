import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { metricsConfig } from '../config/configuration';
import { MetricsService } from './metrics.service';

/**
 * The second listener of docs/configuration-and-deployment.md, Metrics: `GET /metrics` in Prometheus text on METRICS_HOST:METRICS_PORT,
 * never on the public port (which answers `/metrics` 404 like any unknown path). Kept apart from Fastify
 * and Nest on purpose: a scrape runs none of the public pipeline (guards, rate limits, access log) and is
 * not itself counted in the request series. With METRICS_PORT unset it never listens.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server?: Server;

  constructor(
    private readonly metrics: MetricsService,
    @Inject(metricsConfig.KEY) private readonly config: ConfigType<typeof metricsConfig>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.metrics.registry || this.config.port === undefined) return;
    const server = createServer((request, response) => void this.answer(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.port, this.config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    const { address, port } = this.address()!;
    this.logger.log(`Prometheus metrics at http://${address.includes(':') ? `[${address}]` : address}:${port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      // A scraper keeps its connection open between scrapes; it must not hold the shutdown.
      server.closeAllConnections();
    });
  }

  /** Where the listener is bound, or null when metrics are off. */
  address(): AddressInfo | null {
    return (this.server?.address() as AddressInfo | null | undefined) ?? null;
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') return plain(response, 404, 'Not Found: metrics are at /metrics\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(response, 405, 'Method Not Allowed\n', { allow: 'GET, HEAD' });
    try {
      const registry = this.metrics.registry!;
      const body = await registry.metrics();
      response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch (error) {
      this.logger.error({ err: error }, 'Collecting metrics failed');
      plain(response, 500, 'Internal Server Error\n');
    }
  }
}

function plain(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  response.end(body);
}
