import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock';
import { generateSecret, safeEqual, SECRET_PREFIX, sha256Hex } from '../common/crypto/secrets';
import { ApiKey, ApiKeyTier } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';

/** How many characters of a key are kept in clear: the `sp_key_` prefix and 5 random characters. */
const VISIBLE_PREFIX_LENGTH = SECRET_PREFIX.apiKey.length + 5;
const KEY_SYNTAX = /^sp_key_[A-Za-z0-9_-]{16,128}$/;

/**
 * `last_used_at` is informational; writing it on every request would turn each read into a write. It
 * is refreshed at most once a minute per key and instance, without holding up the request.
 */
const LAST_USED_RESOLUTION_MS = 60_000;

/** A valid API key sent in `X-Api-Key`: what the access guard knows of it. */
export interface ApiKeyIdentity {
  id: number;
  name: string;
  tier: ApiKeyTier;
}

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger('ApiKeys');
  private readonly touchedAt = new Map<number, number>();

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * A new key: `sp_key_` and 256 random bits. Only its SHA-256 and a short visible prefix are stored;
   * the key itself is returned this once (SECURITY.md). With an owner (the developer portal), the key
   * is theirs and is made only while they hold fewer than `limit` live keys (OwnerLimitReachedError).
   */
  async create(input: { name: string; tier: ApiKeyTier; owner?: { userId: number; limit: number } }): Promise<{ apiKey: ApiKey; key: string }> {
    const key = generateSecret(SECRET_PREFIX.apiKey);
    const apiKey = this.keys.build({
      name: input.name.trim(),
      tier: input.tier,
      keyHash: sha256Hex(key),
      prefix: key.slice(0, VISIBLE_PREFIX_LENGTH),
      createdAt: this.clock.now(),
      lastUsedAt: null,
      revokedAt: null,
      ownerId: input.owner?.userId ?? null,
    });
    if (!input.owner) return { apiKey: await this.keys.insert(apiKey), key };
    apiKey.id = await this.keys.insertOwned(apiKey, input.owner.userId, input.owner.limit);
    return { apiKey, key };
  }

  list(): Promise<ApiKey[]> {
    return this.keys.all();
  }

  /** A user's keys from the developer portal, live and revoked, oldest first. */
  listOwnedBy(ownerId: number): Promise<ApiKey[]> {
    return this.keys.ownedBy(ownerId);
  }

  findById(id: number): Promise<ApiKey | null> {
    return this.keys.findById(id);
  }

  /**
   * Revokes a key; it is refused from the next request on. Revoking a revoked key changes nothing and
   * keeps the original revocation time. Null when there is no such key.
   */
  async revoke(id: number): Promise<{ apiKey: ApiKey; alreadyRevoked: boolean } | null> {
    const apiKey = await this.findById(id);
    if (!apiKey) return null;
    if (apiKey.revokedAt !== null) return { apiKey, alreadyRevoked: true };
    apiKey.revokedAt = this.clock.now();
    await this.keys.revoke(id, apiKey.revokedAt);
    return { apiKey, alreadyRevoked: false };
  }

  /** The live key a client sent, or null when it is malformed, unknown or revoked. */
  async authenticate(key: string): Promise<ApiKeyIdentity | null> {
    if (!KEY_SYNTAX.test(key)) return null;
    const hash = sha256Hex(key);
    const row = await this.keys.findByHash(hash);
    if (!row || row.revoked_at !== null || !safeEqual(row.key_hash, hash)) return null;
    const id = Number(row.id);
    this.touch(id, row.last_used_at === null ? null : Number(row.last_used_at));
    return { id, name: row.name, tier: row.tier };
  }

  private touch(id: number, storedLastUsedAt: number | null, now = this.clock.now()): void {
    const last = Math.max(storedLastUsedAt ?? 0, this.touchedAt.get(id) ?? 0);
    if (now - last < LAST_USED_RESOLUTION_MS) return;
    this.touchedAt.set(id, now);
    this.keys.touch(id, now).catch((error: unknown) => {
      this.logger.warn(`Could not record the last use of API key ${id}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}
