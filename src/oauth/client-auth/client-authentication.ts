import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Client } from '../../clients/client.entity';
import { ClientsService } from '../../clients/clients.service';
import { ClientMetadataError, looksLikeClientIdUrl, MetadataFetchBudgetError } from '../../clients/metadata-documents/client-metadata';
import { safeEqual, sha256Hex } from '../../common/crypto/secrets';
import { OAuthError } from '../../common/errors/oauth-error';
import { rateLimitedFor } from '../../rate-limit/rate-limit.headers';
import { MetadataFetchBudgets } from './metadata-fetch-budgets';
import { OAuthForm } from './oauth-form';

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface AuthenticatedClient {
  client: Client;
  method: ClientAuthMethod;
}

export interface BasicCredentials {
  clientId: string;
  clientSecret: string;
}

const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="oauth"' };
// Compared against when the client is unknown, so that both paths cost one hash and one comparison.
const DUMMY_HASH = sha256Hex('no such client');

/**
 * RFC 6749 §2.3.1: the client id and secret are each form-urlencoded (Appendix B), then joined with
 * ":" and base64-encoded (RFC 7617). Returns null for anything malformed.
 */
export function parseBasicAuthorization(header: string): BasicCredentials | null {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    const clientId = formDecode(decoded.slice(0, colon));
    const clientSecret = formDecode(decoded.slice(colon + 1));
    return clientId ? { clientId, clientSecret } : null;
  } catch {
    return null;
  }
}

/** application/x-www-form-urlencoded decoding of one value: '+' is a space, then percent-escapes. */
function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

/**
 * Client authentication of the token, revocation and introspection endpoints (RFC 6749 §2.3,
 * RFC 7009 §2.1, RFC 7662 §2.1): `client_secret_basic`, `client_secret_post`, or `none` — a public
 * client identified by `client_id` alone. Using two methods in one request is refused (RFC 6749
 * §2.3: "MUST NOT use more than one authentication method in each request").
 */
@Injectable()
export class ClientAuthenticationService {
  constructor(
    private readonly clients: ClientsService,
    private readonly fetchBudgets: MetadataFetchBudgets,
  ) {}

  async authenticate(request: FastifyRequest, form: OAuthForm): Promise<AuthenticatedClient> {
    const header = request.headers.authorization;
    const bodyId = form.client_id;
    const bodySecret = form.client_secret;

    let method: ClientAuthMethod;
    let clientId: string;
    let secret: string | undefined;
    if (header !== undefined) {
      const basic = parseBasicAuthorization(header);
      // RFC 6749 §5.2: a failed attempt through the Authorization header is a 401 with a challenge.
      if (!basic) throw invalidClient('The Authorization header is not valid HTTP Basic client authentication.', true);
      if (bodySecret !== undefined) throw new OAuthError('invalid_request', 'Use one client authentication method: HTTP Basic or client_secret in the body, not both.');
      if (bodyId !== undefined && bodyId !== basic.clientId) throw new OAuthError('invalid_request', 'client_id in the body differs from the one in the Authorization header.');
      method = 'client_secret_basic';
      clientId = basic.clientId;
      secret = basic.clientSecret;
    } else if (bodySecret !== undefined) {
      if (bodyId === undefined) throw new OAuthError('invalid_request', 'client_secret was sent without client_id.');
      method = 'client_secret_post';
      clientId = bodyId;
      secret = bodySecret;
    } else if (bodyId !== undefined) {
      method = 'none';
      clientId = bodyId;
    } else {
      throw invalidClient('Client authentication is required.', false);
    }

    const basicTried = method === 'client_secret_basic';
    const client = await this.find(clientId, secret, basicTried, request.ip);
    if (secret !== undefined) {
      const matches = safeEqual(sha256Hex(secret), client?.secretHash ?? DUMMY_HASH);
      if (client?.type === 'confidential' && matches) return { client, method };
      // A public client has no secret; an empty Basic password just names it (RFC 6749 §2.3.1).
      if (client?.type === 'public' && secret === '') return { client, method };
      throw invalidClient(client?.type === 'public' ? 'This client is public and has no secret.' : 'Client authentication failed.', basicTried);
    }
    if (!client) throw invalidClient('Client authentication failed.', basicTried);
    if (client.type !== 'public') throw invalidClient('This client must authenticate with its client secret.', basicTried);
    return { client, method };
  }

  /**
   * The named client. A `client_id` URL is a client of a metadata document (docs/integrate-with-oauth.md,
   * "Clients identified by a URL"): public, with no secret to send (draft-ietf-oauth-client-id-metadata-document
   * §4.1), so a secret is refused before anything is fetched; its document's problem is the description.
   */
  private async find(clientId: string, secret: string | undefined, basicTried: boolean, ip: string): Promise<Client | null> {
    if (!looksLikeClientIdUrl(clientId)) return this.clients.findForRequest(clientId, this.fetchBudgets.of(ip));
    if (secret !== undefined && secret !== '') {
      throw invalidClient('A client identified by a client metadata document URL has no secret: it authenticates with none (a public client with PKCE).', basicTried);
    }
    try {
      return await this.clients.findForRequest(clientId, this.fetchBudgets.of(ip));
    } catch (error) {
      // Not the client's fault: its document was not fetched. 429 with Retry-After, as every limit.
      if (error instanceof MetadataFetchBudgetError) throw rateLimitedFor(error.retryAfterSeconds);
      if (error instanceof ClientMetadataError) throw invalidClient(error.message, basicTried);
      throw error;
    }
  }
}

function invalidClient(description: string, basicTried: boolean): OAuthError {
  return new OAuthError('invalid_client', description, basicTried ? BASIC_CHALLENGE : {});
}
