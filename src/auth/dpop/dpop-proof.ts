import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, compactVerify, importJWK, type JWK } from 'jose';

/**
 * The JWS algorithms a DPoP proof may be signed with (RFC 9449 §4.2): asymmetric only, as discovery's
 * `dpop_signing_alg_values_supported` and the `algs` of every DPoP challenge (RFC 9449 §7.1) say.
 */
export const DPOP_SIGNING_ALGS = ['ES256', 'RS256', 'PS256', 'EdDSA'] as const;

/** A proof is a few hundred bytes (a 4096-bit RSA key makes it about 2.5 KB); anything far beyond is refused unread. */
export const MAX_DPOP_PROOF_LENGTH = 8192;

/**
 * RFC 9449 §11.1: how far `iat` may lie from this server's clock, either way (clients' clocks drift).
 * A proof is accepted at most this long after its `iat`, so its `jti` is remembered that long.
 */
export const DPOP_PROOF_WINDOW_SECONDS = 60;

const JWS_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** RFC 7517/7518 members that only a private or symmetric key has: a proof carries a public key (RFC 9449 §4.2). */
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
const KEY_TYPES = ['EC', 'RSA', 'OKP'];
const MAX_JTI_LENGTH = 256;

/** What a proof must match: the request it came with (RFC 9449 §4.3). */
export interface DpopRequest {
  /** The HTTP method, as received. */
  method: string;
  /** The request's URI without query and fragment, built from PUBLIC_URL (RFC 9449 §4.3 item 9). */
  htu: string;
  /** At a protected resource, the access token presented with the proof (RFC 9449 §4.3 item 12: `ath`). */
  accessToken?: string;
  /** This server's clock, epoch ms. */
  now: number;
}

export interface VerifiedDpopProof {
  /** RFC 7638 SHA-256 thumbprint of the proof's key, base64url (RFC 9449 §6.1 `jkt`). */
  jkt: string;
  jti: string;
  /** Until when this proof could be accepted (epoch ms): its `jti` is remembered that long. */
  acceptableUntil: number;
}

/** A proof that fails a check of RFC 9449 §4.3; the message is safe to send back as `error_description`. */
export class DpopProofError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DpopProofError';
  }
}

/** RFC 9449 §4.2 `ath`: base64url of the SHA-256 of the access token's ASCII. */
export function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest('base64url');
}

/**
 * RFC 9449 §4.3 item 9: `htu` is compared without query and fragment, after the syntax-based
 * normalisation of RFC 3986 §6.2.2 and scheme-based of §6.2.3 (case of scheme and host, default port,
 * dot segments, percent-encoding case), which WHATWG URL parsing performs. Null for anything else.
 */
export function normalizeHtu(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.search = '';
  url.hash = '';
  return url.href;
}

/**
 * Checks one DPoP proof (RFC 9449 §4.3), everything but the replay of its `jti` (the caller claims it
 * once every other check passed, see DpopReplayService). The cheap checks come first; the signature is
 * verified last, so garbage costs no public-key operation. `header` is the raw `DPoP` header value:
 * Node joins repeated headers with a comma, which no compact JWS contains.
 */
export async function verifyDpopProof(header: string | string[] | undefined, request: DpopRequest): Promise<VerifiedDpopProof> {
  if (header === undefined || header === '') throw new DpopProofError('A DPoP proof is required: send one in the DPoP header.');
  if (Array.isArray(header) || header.includes(',')) throw new DpopProofError('Send exactly one DPoP header.');
  if (header.length > MAX_DPOP_PROOF_LENGTH) throw new DpopProofError(`The DPoP proof is longer than ${MAX_DPOP_PROOF_LENGTH} characters.`);
  if (!JWS_COMPACT.test(header)) throw new DpopProofError('The DPoP proof is not a compact JWS.');
  const [encodedHeader, encodedPayload] = header.split('.');
  const protectedHeader = decodeJson(encodedHeader);
  const payload = decodeJson(encodedPayload);
  if (!protectedHeader || !payload) throw new DpopProofError('The DPoP proof is not a compact JWS with JSON header and claims.');

  // RFC 9449 §4.3 items 4-7: the type, an asymmetric algorithm this server supports, a public key.
  if (protectedHeader.typ !== 'dpop+jwt') throw new DpopProofError('The DPoP proof must have typ dpop+jwt.');
  const alg = protectedHeader.alg;
  if (typeof alg !== 'string' || !(DPOP_SIGNING_ALGS as readonly string[]).includes(alg)) {
    throw new DpopProofError(`The DPoP proof must be signed with one of ${DPOP_SIGNING_ALGS.join(', ')}.`);
  }
  const jwk = protectedHeader.jwk;
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) throw new DpopProofError('The DPoP proof must carry its public key as jwk in its header.');
  const key = jwk as Record<string, unknown>;
  if (PRIVATE_JWK_MEMBERS.some((member) => member in key)) throw new DpopProofError("The DPoP proof's jwk must be a public key, without private parts.");
  if (typeof key.kty !== 'string' || !KEY_TYPES.includes(key.kty)) throw new DpopProofError("The DPoP proof's jwk must be an EC, RSA or OKP public key.");

  // RFC 9449 §4.3 items 8-12: the claims match this request, now.
  const { jti, htm, htu, iat } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH)
    throw new DpopProofError(`The DPoP proof needs a jti of 1 to ${MAX_JTI_LENGTH} characters.`);
  if (htm !== request.method) throw new DpopProofError("The DPoP proof's htm does not match the request method.");
  if (typeof htu !== 'string' || normalizeHtu(htu) !== normalizeHtu(request.htu))
    throw new DpopProofError("The DPoP proof's htu does not match the request URI.");
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new DpopProofError('The DPoP proof needs a numeric iat.');
  const drift = request.now / 1000 - iat;
  if (Math.abs(drift) > DPOP_PROOF_WINDOW_SECONDS) {
    throw new DpopProofError(`The DPoP proof's iat is more than ${DPOP_PROOF_WINDOW_SECONDS} seconds from the server's time.`);
  }
  if (request.accessToken !== undefined && payload.ath !== accessTokenHash(request.accessToken)) {
    throw new DpopProofError("The DPoP proof's ath does not match the access token.");
  }

  let thumbprint: string;
  try {
    const publicKey = await importJWK(key as JWK, alg);
    if (publicKey instanceof Uint8Array || publicKey.type !== 'public') throw new DpopProofError("The DPoP proof's jwk must be a public key.");
    await compactVerify(header, publicKey, { algorithms: [alg] });
    thumbprint = await calculateJwkThumbprint(key as JWK, 'sha256');
  } catch (error) {
    if (error instanceof DpopProofError) throw error;
    // Whatever the library found (a key that does not fit the algorithm, an RSA modulus under 2048
    // bits, a bad signature): the proof is not valid, and the client learns no more than that.
    throw new DpopProofError("The DPoP proof's signature does not verify with its jwk.");
  }
  return {
    jkt: thumbprint,
    jti,
    acceptableUntil: Math.ceil((iat + DPOP_PROOF_WINDOW_SECONDS) * 1000),
  };
}

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
