import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../../common/clock';
import { appConfig } from '../../config/configuration';
import { AccessTokenLookupService } from '../access-token-lookup.service';
import { DpopChallenge } from '../challenges';
import { AccessTokenGrant } from '../principal';
import { DpopProofError, verifyDpopProof } from './dpop-proof';
import { DpopReplayService } from './dpop-replay.service';

/** The parts of a request a proof is checked against (Node's request or Fastify's: both have these). */
export interface DpopHttpRequest {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}

/** RFC 9449 §7.1: `Authorization: DPoP <token>`, the scheme in any case. */
export const DPOP_SCHEME = /^dpop(\s|$)/i;
const DPOP_CREDENTIALS = /^dpop +(\S+) *$/i;

export type DpopResourceOutcome =
  | { kind: 'valid'; grant: AccessTokenGrant }
  | { kind: 'invalid'; error: 'invalid_token' | 'invalid_dpop_proof'; description: string; challenge: string };

/**
 * RFC 9449 at this server: the proof of a token request (binding the tokens to its key) and the
 * `Authorization: DPoP` credentials of a protected resource (the public API through the `dpop`
 * Passport strategy, and UserInfo). The server issues no nonces (RFC 9449 §8 makes them optional): a
 * proof's freshness is its `iat` within DPOP_PROOF_WINDOW_SECONDS and its single use.
 */
@Injectable()
export class DpopService {
  constructor(
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    private readonly clock: Clock,
    private readonly replays: DpopReplayService,
    private readonly tokens: AccessTokenLookupService,
  ) {}

  /**
   * RFC 9449 §5: the key a token request's proof binds the tokens to, or null when the request has no
   * `DPoP` header (Bearer tokens). Throws DpopProofError for a proof that fails any check or was used before.
   */
  async tokenRequestKey(request: DpopHttpRequest): Promise<string | null> {
    const header = request.headers.dpop;
    if (header === undefined) return null;
    return this.verify(request, header);
  }

  /** RFC 9449 §7.1: what `Authorization: DPoP <token>` with its proof is worth at a protected resource. */
  async resource(request: DpopHttpRequest): Promise<DpopResourceOutcome> {
    const authorization = request.headers.authorization;
    const presented = typeof authorization === 'string' ? DPOP_CREDENTIALS.exec(authorization) : null;
    if (!presented) return invalidToken('The DPoP credentials are malformed: send Authorization: DPoP <access token>.');
    const grant = await this.tokens.find(presented[1], this.clock.now());
    if (!grant) return invalidToken('The access token is invalid, expired or revoked.');
    // RFC 9449 §7.1: the DPoP scheme is for bound tokens; an unbound one is a Bearer token.
    if (grant.jkt === null) return invalidToken('The access token is not bound to a DPoP key: send it as Bearer.');
    let jkt: string;
    try {
      jkt = await this.verify(request, request.headers.dpop, presented[1], grant.jkt);
    } catch (error) {
      if (error instanceof DpopProofError) return invalidProof(error.message);
      throw error;
    }
    return jkt === grant.jkt ? { kind: 'valid', grant } : invalidProof('The DPoP proof is signed with another key than the one the token is bound to.');
  }

  /**
   * Every check of RFC 9449 §4.3, the key (when one is expected) and last the single use, so that a
   * proof failing anything else is not remembered.
   */
  private async verify(request: DpopHttpRequest, header: string | string[] | undefined, accessToken?: string, boundTo?: string): Promise<string> {
    const now = this.clock.now();
    const proof = await verifyDpopProof(header, { method: request.method ?? '', htu: this.htu(request.url ?? '/'), accessToken, now });
    if (boundTo !== undefined && proof.jkt !== boundTo) return proof.jkt;
    if (!(await this.replays.firstUse(proof.jkt, proof.jti, proof.acceptableUntil, now))) {
      throw new DpopProofError('This DPoP proof was already used: send a new proof, with a new jti, for every request.');
    }
    return proof.jkt;
  }

  /** RFC 9449 §4.3 item 9: the URI the client called, as it knows it (PUBLIC_URL), without the query. */
  private htu(url: string): string {
    const query = url.indexOf('?');
    return this.app.publicUrl + (query === -1 ? url : url.slice(0, query));
  }
}

function invalidToken(description: string): DpopResourceOutcome {
  return { kind: 'invalid', error: 'invalid_token', description, challenge: DpopChallenge.invalidToken };
}

function invalidProof(description: string): DpopResourceOutcome {
  return { kind: 'invalid', error: 'invalid_dpop_proof', description, challenge: DpopChallenge.invalidProof };
}
