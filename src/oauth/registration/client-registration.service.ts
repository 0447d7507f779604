import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { AccessTokenCache } from '../../auth/access-token-cache';
import { Client } from '../../clients/client.entity';
import { ClientValidationError } from '../../clients/client-rules';
import { ClientsService } from '../../clients/clients.service';
import { Clock, HOUR_MS } from '../../common/clock';
import { generateSecret, safeEqual, SECRET_PREFIX, sha256Hex } from '../../common/crypto/secrets';
import { appConfig, authConfig } from '../../config/configuration';
import { SignInThrottleService } from '../../rate-limit/sign-in-throttle.service';
import { addressKey } from '../../rate-limit/address-key';
import { rateLimitedFor } from '../../rate-limit/rate-limit.headers';
import { ClientMetadata, parseClientMetadata, RegisteredClientMetadata, registeredMetadata } from './client-metadata';
import { RegistrationError } from './registration-error';

/** RFC 6750 §2.1: `Bearer` (any case), one or more spaces, the token. */
const BEARER = /^bearer +(\S+) *$/i;

/** A request's body as Fastify parsed it, and the media type it was sent as. */
export interface SentBody {
  contentType: string | undefined;
  value: unknown;
}

/**
 * RFC 7591 §3.1: the metadata is a JSON document; a form (which Fastify would parse too) is refused. Read
 * after the checks that come first (registration closed, the registration access token), so that their
 * answer does not depend on the body.
 */
function jsonBody(body: SentBody): unknown {
  const type = (body.contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') throw new RegistrationError('invalid_client_metadata', 'Send the client metadata as a JSON object (Content-Type: application/json).');
  return body.value;
}

/** The counter of registrations made from one address (an IPv6 address by its /64). */
export function registrationThrottleKey(ip: string): string {
  return `register:${addressKey(ip)}`;
}

/**
 * Dynamic client registration (RFC 7591) and its management (RFC 7592), docs/integrate-with-oauth.md
 * "Register a client dynamically". A client is made by ClientsService under the rules of every other
 * registration, unverified, with a registration access token that is returned once and stored only as its
 * SHA-256 (SECURITY.md, "Registration flooding"). Registrations are counted per IP (an IPv6 address by its
 * /64) in one-hour windows on the counters every instance shares (Redis, else the database): a slot is
 * taken before the client is stored, so simultaneous registrations never pass REGISTRATION_MAX_PER_HOUR.
 */
@Injectable()
export class ClientRegistrationService {
  constructor(
    private readonly clients: ClientsService,
    private readonly throttle: SignInThrottleService,
    private readonly tokenCache: AccessTokenCache,
    private readonly clock: Clock,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
  ) {}

  /** RFC 7591 §3.1: registers the client described by `body`; its secret (when confidential) and registration access token are in the answer only. */
  async register(sent: SentBody, ip: string): Promise<RegisteredClientMetadata> {
    if (this.auth.dynamicRegistration !== 'open') {
      throw new RegistrationError('access_denied', 'Dynamic client registration is closed on this server: ask its operator for a client, or register one in the developer portal.');
    }
    const metadata = parseClientMetadata(jsonBody(sent), this.rules());
    const reservation = await this.throttle.reserveOne(registrationThrottleKey(ip), this.clock.now(), { max: this.auth.registrationMaxPerHour, windowMs: HOUR_MS });
    if (!reservation.allowed) throw rateLimitedFor(reservation.retryAfterSeconds);
    const token = generateSecret(SECRET_PREFIX.registrationAccessToken, 32);
    let created: { client: Client; secret?: string };
    try {
      created = await this.clients.create({
        name: metadata.name,
        redirectUris: metadata.redirectUris,
        scopes: metadata.scopes,
        type: metadata.tokenEndpointAuthMethod === 'none' ? 'public' : 'confidential',
        deviceFlow: metadata.deviceFlow,
        idTokenSignedResponseAlg: metadata.idTokenSignedResponseAlg,
        registration: {
          accessTokenHash: sha256Hex(token),
          applicationType: metadata.applicationType,
          tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
          clientUri: metadata.clientUri,
          logoUri: metadata.logoUri,
        },
      });
    } catch (error) {
      // Nothing was stored: the slot goes back (only registrations made count).
      await this.throttle.release(reservation);
      if (error instanceof ClientValidationError) throw parseError(error);
      throw error;
    }
    return registeredMetadata(created.client, this.app.publicUrl, token, created.secret);
  }

  /** RFC 7592 §2.1: the registration as it stands. */
  async read(clientId: string, authorization: string | undefined): Promise<RegisteredClientMetadata> {
    const { client, token } = await this.authenticate(clientId, authorization);
    return registeredMetadata(client, this.app.publicUrl, token);
  }

  /**
   * RFC 7592 §2.2: the metadata replaced as a whole (what is left out goes back to its default), under
   * the rules of a registration. `client_id` must be the client's; a `client_secret`, when sent, must be
   * its current one (it is never replaced here); the fields the server issued are ignored.
   */
  async update(clientId: string, authorization: string | undefined, sent: SentBody): Promise<RegisteredClientMetadata> {
    const { client, token } = await this.authenticate(clientId, authorization);
    const body = jsonBody(sent);
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const fields = body as Record<string, unknown>;
      if (fields.client_id !== client.clientId) throw new RegistrationError('invalid_client_metadata', 'client_id must be sent, and be this client\'s.');
      if (fields.client_secret !== undefined && fields.client_secret !== null) {
        const matches = typeof fields.client_secret === 'string' && client.secretHash !== null && safeEqual(sha256Hex(fields.client_secret), client.secretHash);
        if (!matches) throw new RegistrationError('invalid_client_metadata', 'client_secret, when sent, must be the current one: a client cannot choose its secret.');
      }
    }
    const metadata: ClientMetadata = parseClientMetadata(body, this.rules(), client);
    try {
      const updated = await this.clients.replaceRegistration(client, metadata);
      return registeredMetadata(updated, this.app.publicUrl, token);
    } catch (error) {
      if (error instanceof ClientValidationError) throw parseError(error);
      throw error;
    }
  }

  /** RFC 7592 §2.3: the client deleted with its codes, tokens and consents; its tokens are refused at once. */
  async remove(clientId: string, authorization: string | undefined): Promise<void> {
    const { client } = await this.authenticate(clientId, authorization);
    await this.clients.delete(client.clientId);
    this.tokenCache.revoked();
  }

  /**
   * The client the registration access token is for (RFC 7592 §2): the path's client, registered
   * dynamically, whose stored hash equals the token's, compared in constant time. Anything else, an
   * unknown client included (RFC 7592 §2.1), is the same 401.
   */
  private async authenticate(clientId: string, authorization: string | undefined): Promise<{ client: Client; token: string }> {
    const presented = authorization === undefined ? null : BEARER.exec(authorization);
    if (!presented) throw RegistrationError.token(authorization !== undefined && /^bearer(\s|$)/i.test(authorization));
    const token = presented[1];
    const client = await this.clients.findByClientId(clientId);
    const hash = sha256Hex(token);
    const stored = client?.registrationAccessTokenHash ?? null;
    // Compared even when there is nothing to compare with, so the answer takes as long either way.
    const valid = safeEqual(hash, stored ?? hash.replace(/./g, '0')) && stored !== null;
    if (!client || !valid) throw RegistrationError.token(true);
    return { client, token };
  }

  private rules() {
    return { publicUrl: this.app.publicUrl, platformName: this.app.platformName };
  }
}

/** A rule of the clients module broken while storing: the RFC 7591 §3.2.2 error (a redirect URI's own, or the metadata's). */
function parseError(error: ClientValidationError): RegistrationError {
  return new RegistrationError(error.rule?.startsWith('redirect_uri') ? 'invalid_redirect_uri' : 'invalid_client_metadata', error.message);
}
