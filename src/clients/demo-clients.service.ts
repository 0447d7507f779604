import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { REFERENCE_CLIENT_ID } from '../common/openapi/swagger';
import { appConfig } from '../config/configuration';
import { KNOWN_SCOPES } from '../common/scopes';
import { ClientsService } from './clients.service';

/**
 * Demo data for the OAuth side: the public client the interactive API reference uses for its
 * "Authorize" button (authorization code with PKCE, Swagger UI's own redirect page).
 */
@Injectable()
export class DemoClientsService {
  constructor(
    private readonly clients: ClientsService,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
  ) {}

  /** `${PUBLIC_URL}/docs/oauth2-redirect.html`, where Swagger UI receives the authorization response. */
  get referenceRedirectUri(): string {
    return `${this.app.publicUrl}/docs/oauth2-redirect.html`;
  }

  /**
   * Creates the reference client (`api-reference`, public, every known scope) when it is
   * missing, and points its redirect URI at the current PUBLIC_URL when it exists. Idempotent, so it is
   * safe to call on every start outside production.
   */
  async ensureReferenceClient(): Promise<{ clientId: string; created: boolean }> {
    const redirectUris = [this.referenceRedirectUri];
    const scopes = [...KNOWN_SCOPES].sort();
    const existing = await this.clients.findByClientId(REFERENCE_CLIENT_ID);
    if (existing) {
      const current = existing.redirectUris.join('\n') === redirectUris.join('\n') && existing.scopes.join(' ') === scopes.join(' ');
      if (!current) await this.clients.updateRegistration(existing, redirectUris, scopes);
      return { clientId: REFERENCE_CLIENT_ID, created: false };
    }
    await this.clients.create({ clientId: REFERENCE_CLIENT_ID, name: 'API reference', type: 'public', redirectUris, scopes });
    return { clientId: REFERENCE_CLIENT_ID, created: true };
  }
}
