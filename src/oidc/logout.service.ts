import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { createLocalJWKSet, errors, JWTPayload, jwtVerify } from 'jose';
import { ClientsService } from '../clients/clients.service';
import { appConfig } from '../config/configuration';
import { parseQueryParameters } from '../oauth/authorize/authorization-response';
import { LogoutProblem } from './logout-pages';
import { SIGNING_ALGS, SigningKeysService } from './keys/signing-keys.service';

/** What a logout request comes to: end the session, then redirect or show the signed-out page; or refuse. */
export type LogoutDecision = { kind: 'redirect'; location: string } | { kind: 'signed_out' } | { kind: 'refused'; problem: LogoutProblem };

/**
 * OpenID Connect RP-Initiated Logout 1.0 (CONTRACT §7). `post_logout_redirect_uri` must be exactly (string
 * equality, as for `redirect_uri`) one of the registered redirect URIs of the client, which is the `aud`
 * of `id_token_hint` (or `client_id`, which must then agree with it). There is no separate list of
 * post-logout URIs: a client returns users to an address it already owns.
 */
@Injectable()
export class LogoutService {
  constructor(
    private readonly keys: SigningKeysService,
    private readonly clients: ClientsService,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
  ) {}

  async decide(rawQuery: string): Promise<LogoutDecision> {
    const { values, repeated } = parseQueryParameters(rawQuery);
    if (repeated.size > 0) return { kind: 'refused', problem: 'repeated_parameter' };
    const hint = values.get('id_token_hint');
    const redirectUri = values.get('post_logout_redirect_uri');
    const clientIdParam = values.get('client_id');

    let audience: string | undefined;
    if (hint !== undefined) {
      const payload = await this.verifyHint(hint);
      if (!payload) return { kind: 'refused', problem: 'invalid_id_token_hint' };
      audience = typeof payload.aud === 'string' ? payload.aud : undefined;
      if (audience === undefined || (clientIdParam !== undefined && clientIdParam !== audience)) return { kind: 'refused', problem: 'invalid_id_token_hint' };
    }
    if (redirectUri === undefined) return { kind: 'signed_out' };

    const clientId = audience ?? clientIdParam;
    const client = clientId && clientId.length <= 64 ? await this.clients.findByClientId(clientId) : null;
    if (!client) return { kind: 'refused', problem: 'unknown_client' };
    if (!client.redirectUris.includes(redirectUri)) return { kind: 'refused', problem: 'unregistered_post_logout_redirect_uri' };

    const location = new URL(redirectUri);
    const state = values.get('state');
    if (state !== undefined) location.searchParams.append('state', state);
    return { kind: 'redirect', location: location.toString() };
  }

  /**
   * The hint's claims when it is an ID token this server signed with a key still in the JWKS. An
   * expired one is accepted (Logout §2: the hint is about who, not about a live session).
   */
  private async verifyHint(hint: string): Promise<JWTPayload | null> {
    if (hint.length > 8192) return null;
    const jwks = createLocalJWKSet(await this.keys.jwks());
    try {
      return (await jwtVerify(hint, jwks, { issuer: this.app.publicUrl, algorithms: [...SIGNING_ALGS] })).payload;
    } catch (error) {
      if (error instanceof errors.JWTExpired && error.payload.iss === this.app.publicUrl) return error.payload;
      return null;
    }
  }
}
