import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { authConfig } from '../config/configuration';
import { TokenPurgeService } from './token-purge.service';

/**
 * Purges expired codes, tokens and signed-out sessions every PURGE_INTERVAL seconds in the running
 * service (0 disables it; `cli tokens:purge` does the same on demand). The timer is unref'd, so it
 * never keeps the process alive, and cleared on shutdown.
 */
@Injectable()
export class TokenPurgeScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TokenPurge');
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly purger: TokenPurgeService,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
  ) {}

  onApplicationBootstrap(): void {
    if (this.auth.purgeIntervalSeconds === 0) return;
    this.timer = setInterval(() => void this.tick(), this.auth.purgeIntervalSeconds * 1000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    // A slow purge never overlaps the next one on this instance.
    if (this.running) return;
    this.running = true;
    try {
      const result = await this.purger.purge();
      this.logger.log({ ...result }, 'purged expired codes, tokens and signed-out sessions, and old security events');
    } catch (error) {
      this.logger.warn(`token purge failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.running = false;
    }
  }
}
