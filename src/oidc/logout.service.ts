import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { createLocalJWKSet, errors, JWTPayload, jwtVerify } from 'jose';
import { ClientsService } from '../clients/clients.service';
import { appConfig } from '../config/configuration';
import { parseQueryParameters } from '../common/http/query-parameters';
import { SIGNING_ALGS, SigningKeysService } from './keys/signing-keys.service';
import { LogoutForm } from './logout.form';

/** Why a logout request is refused (RP-Initiated Logout 1.0 §3): the controller answers with a page, no redirect. */
export type LogoutRefusal = 'invalid_id_token_hint' | 'unregistered_post_logout_redirect_uri' | 'unknown_client' | 'repeated_parameter';

/** The fields of a logout request that the confirmation form carries to its POST, validated again there. */
export interface LogoutRequestFields {
  clientId?: string;
  postLogoutRedirectUri?: string;
  state?: string;
}

/**
 * What a logout request comes to once its parameters are checked: refused, or accepted with the user the
 * `id_token_hint` names (`subject`, null without a hint), the fields to carry to a confirmation, and where
 * to send the user once the session has ended (`location`, null: the signed-out page).
 */
export type LogoutDecision =
  | { kind: 'refused'; problem: LogoutRefusal }
  | {
      kind: 'accepted';
      subject: string | null;
      fields: LogoutRequestFields;
      location: string | null;
      /** Set when `location` belongs to an application the operator has not verified (docs/integrate-with-oauth.md). */
      unverified?: { clientName: string };
    };

/**
 * OpenID Connect RP-Initiated Logout 1.0 (docs/integrate-with-oauth.md). `post_logout_redirect_uri` must
 * be exactly (string equality, as for `redirect_uri`) one of the registered redirect URIs of the client,
 * which is the `aud` of `id_token_hint` (or `client_id`, which must then agree with it). There is no
 * separate list of post-logout URIs: a client returns users to an address it already owns. Whether the
 * session ends at once or only after the user confirms is the controller's decision (SECURITY.md).
 */
@Injectable()
export class LogoutService {
  constructor(
    private readonly keys: SigningKeysService,
    private readonly clients: ClientsService,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
  ) {}

  /** A GET's raw query string. */
  async decide(rawQuery: string): Promise<LogoutDecision> {
    const { values, repeated } = parseQueryParameters(rawQuery);
    if (repeated.size > 0) return { kind: 'refused', problem: 'repeated_parameter' };
    return this.check(values.get('id_token_hint'), { clientId: values.get('client_id'), postLogoutRedirectUri: values.get('post_logout_redirect_uri'), state: values.get('state') });
  }

  /**
   * The fields the confirmation form carried back, checked again as if they came in the query (the
   * page's hidden inputs are the user's to edit; a repeated field was refused with the form). No hint is taken here.
   */
  async decideConfirmed(form: LogoutForm): Promise<LogoutDecision> {
    return this.check(undefined, { clientId: form.client_id, postLogoutRedirectUri: form.post_logout_redirect_uri, state: form.state });
  }

  private async check(hint: string | undefined, request: LogoutRequestFields): Promise<LogoutDecision> {
    const { postLogoutRedirectUri: redirectUri, clientId: clientIdParam, state } = request;
    let audience: string | undefined;
    let subject: string | null = null;
    if (hint !== undefined) {
      const payload = await this.verifyHint(hint);
      if (!payload) return { kind: 'refused', problem: 'invalid_id_token_hint' };
      audience = typeof payload.aud === 'string' ? payload.aud : undefined;
      if (audience === undefined || typeof payload.sub !== 'string' || (clientIdParam !== undefined && clientIdParam !== audience)) {
        return { kind: 'refused', problem: 'invalid_id_token_hint' };
      }
      subject = payload.sub;
    }
    const clientId = audience ?? clientIdParam;
    const fields: LogoutRequestFields = { clientId, postLogoutRedirectUri: redirectUri, state };
    if (redirectUri === undefined) return { kind: 'accepted', subject, fields, location: null };

    const client = clientId && clientId.length <= 64 ? await this.clients.findByClientId(clientId) : null;
    if (!client) return { kind: 'refused', problem: 'unknown_client' };
    if (!client.redirectUris.includes(redirectUri)) return { kind: 'refused', problem: 'unregistered_post_logout_redirect_uri' };

    const location = new URL(redirectUri);
    if (state !== undefined) location.searchParams.append('state', state);
    return { kind: 'accepted', subject, fields, location: location.toString(), ...(client.verified ? {} : { unverified: { clientName: client.name } }) };
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
