import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import type { KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, CryptoKey, exportJWK, generateKeyPair, importJWK, JWK } from 'jose';
import { Clock } from '../../common/clock';
import { oidcConfig } from '../../config/configuration';
import { KeyDecryptionError, KeyEncryption, signingKeyAad } from './key-encryption';
import { SIGNING_ALGS, SigningAlg, SigningKey, SigningKeyState } from './signing-key.entity';
import { NewSigningKey, SigningKeyChanges, SigningKeysRepository } from './signing-keys.repository';

export { SIGNING_ALGS };
export type { SigningAlg };

/** The private key that signs new ID tokens for one algorithm. */
export interface ActiveSigningKey {
  kid: string;
  alg: SigningAlg;
  key: CryptoKey | KeyObject;
}

/** A signing key as `keys:list` shows it (README.md, Commands; docs/integrate-with-oauth.md, OpenID Connect). */
export interface SigningKeySummary {
  kid: string;
  alg: SigningAlg;
  state: SigningKeyState;
  createdAt: string;
}

/**
 * How long an instance reuses what it read of the keys. A rotation made elsewhere (another instance, the
 * CLI) is seen within this time; signing never queries the database itself.
 */
export const KEY_CACHE_MS = 4_000;
/**
 * A new key signs only once it is this old, so every instance's JWKS lists it before any ID token
 * carries its `kid` (a relying party that refetches the JWKS on an unknown `kid` always finds it).
 * With the cache above, every instance signs with a rotated key within KEY_CACHE_MS + this (< 10 s).
 */
export const ACTIVATION_DELAY_MS = KEY_CACHE_MS;
/**
 * After a rotation the previous key stays published for ID_TOKEN_TTL plus this margin: instances may
 * still sign with it for up to ACTIVATION_DELAY_MS + KEY_CACHE_MS, and relying parties tolerate some
 * clock skew on `exp`.
 */
export const PUBLISHED_MARGIN_MS = 5 * 60_000;

/** After a failed reread, how long the keys read last are used before trying again. */
const OUTAGE_RETRY_MS = 1_000;

interface Snapshot {
  /** Until when this snapshot may be used: the cache time, or earlier when a new key activates. */
  validUntil: number;
  signing: Map<SigningAlg, ActiveSigningKey>;
  jwks: { keys: JWK[] };
}

/** A stored key cannot be decrypted with this process's KEY_ENCRYPTION_SECRET. */
export class SigningKeyUnreadableError extends Error {
  override readonly name = 'SigningKeyUnreadableError';
  constructor(
    readonly kid: string,
    readonly alg: SigningAlg,
    readonly failure: KeyDecryptionError,
  ) {
    super(
      failure.reason === 'other-secret'
        ? `KEY_ENCRYPTION_SECRET does not decrypt the active ${alg} signing key ${kid}: it was encrypted under another secret; use the secret the keys were made with`
        : `The active ${alg} signing key ${kid} cannot be decrypted: ${failure.message}`,
    );
  }
}

/**
 * The ID-token signing keys (docs/integrate-with-oauth.md, OpenID Connect): one active key per algorithm (RS256 and ES256), stored in
 * the database with the private key encrypted (KeyEncryption), so every instance signs with the same
 * key. Each instance keeps what it read for KEY_CACHE_MS; `keys:rotate` on any instance or the CLI is
 * therefore seen everywhere within seconds, without a query per signature.
 */
@Injectable()
export class SigningKeysService {
  private readonly logger = new Logger(SigningKeysService.name);
  private readonly encryption: KeyEncryption;
  private snapshot?: Snapshot;
  private loading?: Promise<Snapshot>;
  /** Keys whose decryption failure was logged already: one line per key, not one per refresh. */
  private readonly reported = new Set<string>();
  private readFailing = false;

  constructor(
    @Inject(oidcConfig.KEY) private readonly config: ConfigType<typeof oidcConfig>,
    private readonly keys: SigningKeysRepository,
    private readonly clock: Clock,
  ) {
    this.encryption = new KeyEncryption(config.keyEncryptionSecret);
  }

  /** The private key that signs new ID tokens with `alg`, and its `kid` for the JWS header. */
  async signingKey(alg: SigningAlg): Promise<ActiveSigningKey> {
    if (!SIGNING_ALGS.includes(alg)) throw new Error(`Unsupported ID-token signing algorithm: ${String(alg)}`);
    let key = (await this.current()).signing.get(alg);
    if (!key) {
      // Keys are made at start; a database emptied behind the service's back gets new ones here.
      await this.ensureKeys();
      key = (await this.current()).signing.get(alg);
    }
    if (!key) throw new Error(`No ${alg} signing key`);
    return key;
  }

  /** The published public keys (RFC 7517 JWK Set): what GET /oauth/jwks serves. Read only. */
  async jwks(): Promise<{ keys: JWK[] }> {
    return (await this.current()).jwks;
  }

  /** Every key, newest first, with its state as of now (a published key past its time shows retired). */
  async list(): Promise<SigningKeySummary[]> {
    const now = this.clock.now();
    const rows = await this.keys.all();
    return rows.map((row) => ({ kid: row.kid, alg: row.alg, state: effectiveState(row, now), createdAt: new Date(row.createdAt).toISOString() }));
  }

  /**
   * Makes an active key for every algorithm that has none (the first start), race-safe across instances.
   * Without a configured KEY_ENCRYPTION_SECRET (development), keys an earlier process made under its own
   * generated secret cannot be read: they are rotated out (still published, so ID tokens they signed
   * keep verifying). Then checks that this process can decrypt every active key: a wrong secret stops
   * the start with one clear line rather than failing each signature later.
   */
  async ensureKeys(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const rows = await this.keys.active();
      const unreadable = this.config.keyEncryptionSecretGenerated ? rows.filter((row) => row.generatedSecret === 1 && KeyEncryption.secretIdOf(row.privateKey) !== this.encryption.secretId) : [];
      const needed = SIGNING_ALGS.filter((alg) => !rows.some((row) => row.alg === alg) || unreadable.some((row) => row.alg === alg));
      if (needed.length === 0) break;
      // Key generation is real work: done before the transaction (see the rule on inTransaction).
      const fresh = await Promise.all(needed.map((alg) => this.generate(alg)));
      try {
        const made = await this.keys.change(async (changes, now) => {
          let count = 0;
          for (const key of fresh) {
            const replaced = unreadable.find((row) => row.alg === key.alg);
            if (replaced) await this.deactivate(changes, replaced.alg, now, replaced.kid);
            // Another instance made it meanwhile (it held the lock first): theirs stays.
            if (await changes.hasActive(key.alg)) continue;
            await changes.insert(key, now);
            count++;
          }
          return count;
        });
        if (unreadable.length > 0 && made > 0) {
          this.logger.warn({ kids: unreadable.map((row) => row.kid) }, 'KEY_ENCRYPTION_SECRET is not set: the signing keys of an earlier start could not be read and were rotated; set it to keep the keys across restarts');
        }
        if (made > 0) this.logger.log({ algs: fresh.map((key) => key.alg) }, 'signing keys created');
        // Every key made was stored: done. Otherwise another instance stored its own first; the next pass
        // reads them (and, without a configured secret, replaces those this process cannot read).
        if (made === fresh.length || attempt >= 3) break;
      } catch (error) {
        // SQLite across processes has no advisory lock: the unique index on the active key decides, and
        // the loser reads the winner's key on the next pass.
        if (!isUniqueViolation(error) || attempt >= 3) throw error;
      }
    }
    this.snapshot = await this.load(true);
  }

  /**
   * `keys:rotate`: a new active key for each of `algs`; the previous one stays published until every ID
   * token it signed has expired (ID_TOKEN_TTL + PUBLISHED_MARGIN_MS), then it is retired. Refused, with
   * nothing changed, when this process cannot decrypt the current active keys (another secret): the
   * new keys would be unreadable for the service.
   */
  async rotate(algs: readonly SigningAlg[] = SIGNING_ALGS): Promise<{ rotated: SigningKeySummary[] }> {
    for (const row of await this.keys.active()) {
      if (!algs.includes(row.alg)) continue;
      try {
        this.encryption.decrypt(row.privateKey, signingKeyAad(row.kid, row.alg));
      } catch (error) {
          if (error instanceof KeyDecryptionError) throw new SigningKeyUnreadableError(row.kid, row.alg, error);
        throw error;
      }
    }
    const fresh = await Promise.all(algs.map((alg) => this.generate(alg)));
    const createdAt = await this.keys.change(async (changes, now) => {
      for (const key of fresh) {
        await this.deactivate(changes, key.alg, now);
        await changes.insert(key, now);
      }
      return now;
    });
    this.snapshot = undefined;
    return { rotated: fresh.map((key) => ({ kid: key.kid, alg: key.alg, state: 'active' as const, createdAt: new Date(createdAt).toISOString() })) };
  }

  /** Whether this process encrypts under a secret generated for it alone (KEY_ENCRYPTION_SECRET unset, DEV_SECRETS_FILE=off). */
  get secretGenerated(): boolean {
    return this.config.keyEncryptionSecretGenerated && !this.config.keyEncryptionSecretKept;
  }

  // --- the cache ---

  private async current(): Promise<Snapshot> {
    const snapshot = this.snapshot;
    if (snapshot && this.clock.now() < snapshot.validUntil) return snapshot;
    // One reload at a time; callers meanwhile wait for it rather than each querying.
    this.loading ??= this.reload().finally(() => (this.loading = undefined));
    return this.loading;
  }

  /**
   * A failed reread (the database unreachable) keeps what this instance read last, tried again after
   * OUTAGE_RETRY_MS: the JWKS stays served and ID tokens stay verifiable through an outage. Without
   * anything read yet, the failure is the caller's.
   */
  private async reload(): Promise<Snapshot> {
    try {
      this.snapshot = await this.load(false);
      this.readFailing = false;
    } catch (error) {
      const kept = this.snapshot;
      if (!kept) throw error;
      if (!this.readFailing) this.logger.warn({ err: error }, 'signing keys could not be read; serving those read last');
      this.readFailing = true;
      this.snapshot = { ...kept, validUntil: this.clock.now() + OUTAGE_RETRY_MS };
    }
    return this.snapshot;
  }

  /**
   * Reads the keys that are not retired: the JWKS (active and published ones) and, per algorithm, the
   * key to sign with. `strict` (the start) fails on an active key this process cannot decrypt; later, a
   * key made elsewhere under another secret is logged once and the previous key keeps signing.
   */
  private async load(strict: boolean): Promise<Snapshot> {
    const now = this.clock.now();
    const rows = await this.keys.notRetired();
    const live = rows.filter((row) => effectiveState(row, now) !== 'retired');
    if (live.length < rows.length) await this.keys.retireExpired(now);

    let validUntil = now + KEY_CACHE_MS;
    const signing = new Map<SigningAlg, ActiveSigningKey>();
    for (const alg of SIGNING_ALGS) {
      // Newest first: the active key once it is old enough, else the key it replaced.
      const candidates = live.filter((row) => row.alg === alg);
      const active = candidates.find((row) => row.state === 'active');
      if (!active) continue;
      const activatesAt = active.createdAt + ACTIVATION_DELAY_MS;
      const previous = now < activatesAt ? candidates.find((row) => row.state === 'published') : undefined;
      // The key it replaced, if this process can read it (not after a development restart, see ensureKeys).
      const stillSigning = previous ? await this.signingKeyOf(previous, false, true) : undefined;
      if (stillSigning) validUntil = Math.min(validUntil, activatesAt);
      const key = stillSigning ?? (await this.signingKeyOf(active, strict));
      if (key) signing.set(alg, key);
      else {
        const kept = this.snapshot?.signing.get(alg);
        if (kept) signing.set(alg, kept);
      }
    }
    return { validUntil, signing, jwks: Object.freeze({ keys: live.map((row) => publicJwk(row)) }) };
  }

  private async signingKeyOf(row: SigningKey, strict: boolean, quiet = false): Promise<ActiveSigningKey | undefined> {
    const cached = [...(this.snapshot?.signing.values() ?? [])].find((key) => key.kid === row.kid);
    if (cached) return cached;
    let jwk: JWK;
    try {
      jwk = JSON.parse(this.encryption.decrypt(row.privateKey, signingKeyAad(row.kid, row.alg))) as JWK;
    } catch (error) {
      if (!(error instanceof KeyDecryptionError)) throw error;
      const unreadable = new SigningKeyUnreadableError(row.kid, row.alg, error);
      if (strict) throw unreadable;
      if (!quiet && !this.reported.has(row.kid)) {
        this.reported.add(row.kid);
        this.logger.error({ kid: row.kid, alg: row.alg, reason: error.reason }, `${unreadable.message}; this instance keeps signing with the key it has`);
      }
      return undefined;
    }
    return { kid: row.kid, alg: row.alg, key: (await importJWK(jwk, row.alg)) as CryptoKey };
  }

  // --- writing ---

  private async generate(alg: SigningAlg): Promise<NewSigningKey> {
    const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
    const bare = await exportJWK(publicKey);
    // RFC 7638 thumbprint: a kid derived from the key itself, unique without coordination.
    const kid = await calculateJwkThumbprint(bare, 'sha256');
    const publicJwk: JWK = { ...bare, kid, alg, use: 'sig' };
    const privateJwk = await exportJWK(privateKey);
    return {
      kid,
      alg,
      publicJwk: JSON.stringify(publicJwk),
      privateKey: this.encryption.encrypt(JSON.stringify(privateJwk), signingKeyAad(kid, alg)),
      generatedSecret: this.config.keyEncryptionSecretGenerated,
    };
  }

  /** The previous key stays published until every ID token it signed has expired. */
  private deactivate(changes: SigningKeyChanges, alg: SigningAlg, now: number, kid?: string): Promise<void> {
    return changes.deactivate(alg, now, now + this.config.idTokenTtlSeconds * 1000 + PUBLISHED_MARGIN_MS, kid);
  }
}

function effectiveState(row: Pick<SigningKey, 'state' | 'retireAt'>, now: number): SigningKeyState {
  return row.state === 'published' && row.retireAt !== null && row.retireAt <= now ? 'retired' : row.state;
}

// RFC 7517 §4, RFC 7518 §6: the public members only, whatever the stored JSON holds.
const PUBLIC_MEMBERS: Record<string, readonly string[]> = { RSA: ['n', 'e'], EC: ['crv', 'x', 'y'] };

function publicJwk(row: SigningKey): JWK {
  const stored = JSON.parse(row.publicJwk) as JWK;
  const members = PUBLIC_MEMBERS[stored.kty ?? ''] ?? [];
  const jwk: JWK = { kty: stored.kty, kid: row.kid, alg: row.alg, use: 'sig' };
  for (const name of members) (jwk as Record<string, unknown>)[name] = (stored as Record<string, unknown>)[name];
  return Object.freeze(jwk);
}

function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; driverError?: { code?: string } };
  const code = candidate.driverError?.code ?? candidate.code ?? '';
  return code === '23505' || code.startsWith('SQLITE_CONSTRAINT');
}
