import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { insertOwned } from '../database/owned-insert';
import { PreparedQuery, preparedQuery } from '../database/prepared-query';
import { param } from '../database/sql';
import { ApiKey, ApiKeyTier } from './api-key.entity';

/** What the look-up of a key by its hash reads. */
export interface ApiKeyRow {
  id: number | string;
  name: string;
  tier: ApiKeyTier;
  key_hash: string;
  last_used_at: number | string | null;
  revoked_at: number | string | null;
}

/**
 * The developer API keys (`api_keys`), through the ORM's repository except for three statements. The
 * look-up by hash and the record of a key's last use run on every request that sends a key: a prepared
 * statement (src/database/prepared-query.ts) and one fixed UPDATE skip the ORM's per-query work. A key with an owner
 * is inserted by one statement that counts the owner's live keys (src/database/owned-insert.ts), so two
 * requests racing cannot pass the limit together.
 */
@Injectable()
export class ApiKeysRepository {
  private readonly lookup: PreparedQuery<ApiKeyRow>;
  private readonly touchSql: string;

  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly dataSource: DataSource,
  ) {
    this.lookup = preparedQuery<ApiKeyRow>(dataSource, 'sp_api_key_lookup', 'SELECT id, name, tier, key_hash, last_used_at, revoked_at FROM api_keys WHERE key_hash = $1');
    this.touchSql = `UPDATE api_keys SET last_used_at = ${param(dataSource, 1)} WHERE id = ${param(dataSource, 2)}`;
  }

  /** A new key's row without its id, to fill in and insert. */
  build(fields: Omit<ApiKey, 'id'>): ApiKey {
    return this.keys.create(fields);
  }

  insert(apiKey: ApiKey): Promise<ApiKey> {
    return this.keys.save(apiKey);
  }

  /** Inserts a key owned by `ownerId` while they hold fewer than `limit` live keys; its id (OwnerLimitReachedError otherwise). */
  insertOwned(apiKey: ApiKey, ownerId: number, limit: number): Promise<number> {
    return insertOwned(this.dataSource, {
      table: 'api_keys',
      row: { name: apiKey.name, tier: apiKey.tier, key_hash: apiKey.keyHash, prefix: apiKey.prefix, created_at: apiKey.createdAt },
      ownerId,
      limit,
      counted: 'revoked_at IS NULL',
    });
  }

  all(): Promise<ApiKey[]> {
    return this.keys.find({ order: { id: 'ASC' } });
  }

  ownedBy(ownerId: number): Promise<ApiKey[]> {
    return this.keys.find({ where: { ownerId }, order: { id: 'ASC' } });
  }

  findById(id: number): Promise<ApiKey | null> {
    return this.keys.findOneBy({ id });
  }

  async revoke(id: number, revokedAt: number): Promise<void> {
    await this.keys.update({ id }, { revokedAt });
  }

  /** The key with this SHA-256 hash, live or revoked. */
  async findByHash(hash: string): Promise<ApiKeyRow | undefined> {
    return (await this.lookup.all(hash))[0];
  }

  /** Records a key's last use (informational). */
  async touch(id: number, now: number): Promise<void> {
    await this.dataSource.query(this.touchSql, [now, id]);
  }
}
