import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { DemoClientsService } from '../clients/demo-clients.service';
import { appConfig, mailConfig } from '../config/configuration';
import { mailDestination } from '../mail/mail-destination';
import { DatabaseInfo } from '../database/database-info';
import { StartupsSeederService } from '../startups/startups-seeder.service';
import { UsersService } from '../users/users.service';

export const DEMO_USER_EMAIL = 'demo@example.com';

/**
 * Outside production, a new empty database is filled with demo data at start (README.md, Commands): demo
 * startups, a demo user, a standard-tier API key and the public client of the API reference. The
 * credentials are printed once, on stdout, when they are created; they are never logged.
 */
@Injectable()
export class DemoDataService implements OnApplicationBootstrap {
  private readonly logger = new Logger(DemoDataService.name);
  /** What the start prints once the server listens (takeBanner): the demo credentials, or how to get them back. */
  private banner?: string;

  constructor(
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    @Inject(mailConfig.KEY) private readonly mail: ConfigType<typeof mailConfig>,
    private readonly database: DatabaseInfo,
    private readonly users: UsersService,
    private readonly apiKeys: ApiKeysService,
    private readonly clients: DemoClientsService,
    private readonly startups: StartupsSeederService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.app.seedDemoData || this.app.production) return;
    // The reference client follows PUBLIC_URL on every start, so "Authorize" in /docs keeps working.
    await this.clients.ensureReferenceClient();
    if (!this.database.createdThisStart()) {
      if (await this.users.findByEmail(DEMO_USER_EMAIL)) {
        this.banner = [
          '',
          `  API reference   ${this.app.publicUrl}/docs`,
          `  Demo account    ${DEMO_USER_EMAIL}   (new password: npm run cli -- users:reset-password --email ${DEMO_USER_EMAIL})`,
          `  Mail            ${mailDestination(this.mail)}`,
          '',
    ].join('\n');
      }
      return;
    }

    const seeded = await this.startups.seed();
    const password = randomBytes(9).toString('base64url');
    const user = await this.users.create({ email: DEMO_USER_EMAIL, name: 'Demo Kullanıcı', password });
    const { key } = await this.apiKeys.create({ name: 'Demo key', tier: 'standard' });
    this.logger.log({ startups: seeded.startupsTotal, userId: user.id }, 'demo data created');

    this.banner = [
      '',
      '──────────────── Demo data (shown once) ────────────────',
      `  API reference   ${this.app.publicUrl}/docs   (Authorize, then sign in below)`,
      `  Sign in as      ${DEMO_USER_EMAIL}  /  ${password}`,
      `  API key         ${key}   (standard tier, header X-Api-Key)`,
      `  Startups        ${seeded.startupsTotal} demo startups`,
      `  Mail            ${mailDestination(this.mail)}`,
      `  Lost password?  npm run cli -- users:reset-password --email ${DEMO_USER_EMAIL}`,
      '────────────────────────────────────────────────────────',
      '',
    ].join('\n');
  }

  /**
   * The demo banner of this start, once (then undefined): main.ts prints it after the server listens, so
   * that it is not scrolled away by the start's log lines. The credentials are never logged.
   */
  takeBanner(): string | undefined {
    const banner = this.banner;
    this.banner = undefined;
    return banner;
  }
}
