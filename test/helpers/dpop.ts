import { createHash, randomUUID, type webcrypto } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

export type DpopAlg = 'ES256' | 'RS256' | 'PS256' | 'EdDSA';

export interface DpopKey {
  alg: DpopAlg;
  privateKey: webcrypto.CryptoKey;
  publicKey: webcrypto.CryptoKey;
  publicJwk: JWK;
  /** RFC 7638 SHA-256 thumbprint of the public key. */
  jkt: string;
}

/** A DPoP key pair as a client holds it (RFC 9449 §2). */
export async function dpopKey(alg: DpopAlg = 'ES256'): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, {
    extractable: true,
  });
  const publicJwk = await exportJWK(publicKey);
  return {
    alg,
    privateKey,
    publicKey,
    publicJwk,
    jkt: await calculateJwkThumbprint(publicJwk, 'sha256'),
  };
}

export interface ProofOptions {
  htm: string;
  htu: string;
  accessToken?: string;
  /** Seconds since the epoch; default now. */
  iat?: number;
  jti?: string;
  typ?: string;
  alg?: string;
  jwk?: JWK;
  claims?: Record<string, unknown>;
}

/** A DPoP proof JWT (RFC 9449 §4.2), with each part overridable to build hostile ones. */
export async function dpopProof(key: DpopKey, options: ProofOptions): Promise<string> {
  const payload: Record<string, unknown> = {
    jti: options.jti ?? randomUUID(),
    htm: options.htm,
    htu: options.htu,
    ...(options.accessToken === undefined
      ? {}
      : {
          ath: createHash('sha256').update(options.accessToken).digest('base64url'),
        }),
    ...options.claims,
  };
  return new SignJWT(payload)
    .setProtectedHeader({
      alg: options.alg ?? key.alg,
      typ: options.typ ?? 'dpop+jwt',
      jwk: options.jwk ?? key.publicJwk,
    })
    .setIssuedAt(options.iat ?? Math.floor(Date.now() / 1000))
    .sign(key.privateKey);
}
