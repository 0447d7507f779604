import { DataSource, DataSourceOptions, MigrationInterface } from 'typeorm';
import { foldName } from '../../src/common/text/name-folding';
import { parseEnvironment } from '../../src/config/configuration';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { MIGRATIONS } from '../../src/database/migrations';
import { createdThisStart, runMigrations } from '../../src/database/migrate';
import { ClientAndKeyOwners1763700000200 } from '../../src/database/migrations/1763700000200-client-and-key-owners';
import { AccessTokensWithoutUser1763700000400 } from '../../src/database/migrations/1763700000400-access-tokens-without-user';
import { NameSortKeys1763700000500 } from '../../src/database/migrations/1763700000500-name-sort-keys';
import { EndedSessions1763700000600 } from '../../src/database/migrations/1763700000600-ended-sessions';
import { ClientVerified1790000000301 } from '../../src/database/migrations/1790000000301-client-verified';
import { OwnerForeignKeyNames1790000000951 } from '../../src/database/migrations/1790000000951-owner-foreign-key-names';
import { ClientMetadataDocuments1790000003601 } from '../../src/database/migrations/1790000003601-client-metadata-documents';
import { FinalSigma1790000003801 } from '../../src/database/migrations/1790000003801-final-sigma';
import { ConsentRedirectUris1790000003901 } from '../../src/database/migrations/1790000003901-consent-redirect-uris';
import { params } from '../../src/database/sql';
import { startupListSql } from '../../src/startups/startups.repository';
import { engine, isolatedStorage } from '../helpers/test-app';

/**
 * A database migrated up to just before `migration`, given `seed`'s rows there, then migrated to the end
 * and handed to `check`: how a migration that moves data is tested against rows of the schema before it.
 */
async function upgradeAcross(migration: new () => MigrationInterface, seed: (old: DataSource) => Promise<void>, check: (current: DataSource) => Promise<void>): Promise<void> {
  const storage = await isolatedStorage();
  const options = dataSourceOptions(parseEnvironment(storage.env).database);
  const all = options.migrations as Array<new () => MigrationInterface>;
  const old = await new DataSource({ ...options, migrations: all.slice(0, all.indexOf(migration)) } as typeof options).initialize();
  try {
    await old.runMigrations({ transaction: 'each' });
    await seed(old);
  } finally {
    await old.destroy();
  }
  const current = await new DataSource(options).initialize();
  try {
    await runMigrations(current);
    await check(current);
  } finally {
    await current.destroy();
    await storage.drop();
  }
}

/** Every industry's and startup's sort key is its name as foldName folds it now (common/text/name-folding.ts). */
async function expectEverySortKeyFolded(source: DataSource): Promise<void> {
  for (const table of ['industries', 'startups']) {
    const rows: Array<{ name: string; sort_name: string }> = await source.query(`SELECT name, sort_name FROM ${table}`);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect([table, row.name, row.sort_name]).toEqual([table, row.name, foldName(row.name)]);
  }
}

describe('migrations (docs/configuration-and-deployment.md)', () => {
  it('create the whole schema on a new database and report it as new exactly once', async () => {
    const storage = await isolatedStorage();
    const options = dataSourceOptions(parseEnvironment(storage.env).database);
    const first = await new DataSource(options).initialize();
    try {
      expect(await runMigrations(first)).toBe(true);
      expect(createdThisStart(first)).toBe(true);
      const [industries] = await first.query('SELECT COUNT(*) AS n FROM industries');
      expect(Number(industries.n)).toBeGreaterThanOrEqual(20);

      const second = await new DataSource(options).initialize();
      try {
        expect(await runMigrations(second)).toBe(false);
        expect(createdThisStart(second)).toBe(false);
      } finally {
        await second.destroy();
      }
    } finally {
      await first.destroy();
      await storage.drop();
    }
  });

  (engine() === 'postgres' ? it : it.skip)('let several instances start at once on one PostgreSQL: exactly one migrates', async () => {
    const storage = await isolatedStorage();
    const options = dataSourceOptions(parseEnvironment(storage.env).database);
    const sources = await Promise.all([1, 2, 3].map(() => new DataSource(options).initialize()));
    try {
      const created = await Promise.all(sources.map((source) => runMigrations(source)));
      expect(created.filter(Boolean)).toHaveLength(1);
      const [row] = await sources[0].query('SELECT COUNT(*) AS n FROM migrations');
      expect(Number(row.n)).toBe(sources[0].migrations.length);
    } finally {
      await Promise.all(sources.map((source) => source.destroy()));
      await storage.drop();
    }
  });

  it('give clients and API keys an owner: earlier ones keep everything and have none; undone, the column goes and the rows stay (1763700000200)', async () => {
    const storage = await isolatedStorage();
    const options = dataSourceOptions(parseEnvironment(storage.env).database);
    const all = options.migrations as Array<new () => MigrationInterface>;
    const upToOwners = all.slice(0, all.indexOf(ClientAndKeyOwners1763700000200) + 1);
    const source = await new DataSource({ ...options, migrations: upToOwners.slice(0, -1) } as typeof options).initialize();
    try {
      await source.runMigrations({ transaction: 'each' });
      await source.query(`INSERT INTO users (email, name, password_hash, created_at) VALUES ('o@example.com', 'O', 'x', 1)`);
      await source.query(`INSERT INTO oauth_clients (client_id, name, type, secret_hash, redirect_uris, scopes, created_at) VALUES ('c', 'C', 'confidential', 'h', '[]', 'profile', 1)`);
      await source.query(`INSERT INTO oauth_access_tokens (token_hash, client_id, user_id, scope, family_id, expires_at, created_at) VALUES ('h1', 1, 1, 'profile', 'f', 2, 1)`);
      await source.query(`INSERT INTO api_keys (name, tier, key_hash, prefix, created_at) VALUES ('K', 'partner', 'kh', 'sp_key_abcde', 1)`);
    } finally {
      await source.destroy();
    }
    const owned = await new DataSource({ ...options, migrations: upToOwners } as typeof options).initialize();
    try {
      await owned.runMigrations({ transaction: 'each' });
      expect(await owned.query(`SELECT client_id, owner_id FROM oauth_clients`)).toEqual([{ client_id: 'c', owner_id: null }]);
      expect(await owned.query(`SELECT name, owner_id FROM api_keys`)).toEqual([{ name: 'K', owner_id: null }]);
      await owned.query(`UPDATE api_keys SET owner_id = 1`);
      await expect(owned.query(`UPDATE oauth_clients SET owner_id = 999`)).rejects.toThrow();
      if (engine() === 'sqlite') {
        // Inside a transaction SQLite keeps enforcing foreign keys, and the table rebuild would cascade.
        await expect(owned.undoLastMigration({ transaction: 'each' })).rejects.toThrow("transaction: 'none'");
        expect(await owned.query(`SELECT token_hash FROM oauth_access_tokens`)).toEqual([{ token_hash: 'h1' }]);
      }
      await owned.undoLastMigration({ transaction: engine() === 'sqlite' ? 'none' : 'each' });
      for (const table of ['oauth_clients', 'api_keys']) {
        expect((await owned.createQueryRunner().getTable(table))!.columns.map((c) => c.name)).not.toContain('owner_id');
      }
      // Undoing rebuilt the tables on SQLite: the rows, and the token that references the client, stay.
      expect(await owned.query(`SELECT token_hash FROM oauth_access_tokens`)).toEqual([{ token_hash: 'h1' }]);
      expect((await owned.query(`SELECT name FROM api_keys`)).map((r: { name: string }) => r.name)).toEqual(['K']);
    } finally {
      await owned.destroy();
      await storage.drop();
    }
  });

  it('keep every access token, its indexes and its foreign keys when user_id becomes optional (1763700000400)', async () => {
    const storage = await isolatedStorage();
    const options = dataSourceOptions(parseEnvironment(storage.env).database);
    const all = options.migrations as Array<new () => MigrationInterface>;
    const before = all.slice(0, all.indexOf(AccessTokensWithoutUser1763700000400));
    const old = await new DataSource({ ...options, migrations: before } as typeof options).initialize();
    try {
      await old.runMigrations({ transaction: 'each' });
      await old.query(`INSERT INTO users (email, name, password_hash, created_at) VALUES ('m@example.com', 'M', 'x', 1)`);
      await old.query(`INSERT INTO oauth_clients (client_id, name, type, secret_hash, redirect_uris, scopes, created_at) VALUES ('c', 'C', 'confidential', 'h', '[]', 'profile', 1)`);
      await old.query(`INSERT INTO oauth_access_tokens (token_hash, client_id, user_id, scope, family_id, expires_at, created_at) VALUES ('h1', 1, 1, 'profile', 'f', 2, 1)`);
      await expect(old.query(`INSERT INTO oauth_access_tokens (token_hash, client_id, user_id, scope, family_id, expires_at, created_at) VALUES ('h2', 1, NULL, 'x', 'g', 2, 1)`)).rejects.toThrow();
    } finally {
      await old.destroy();
    }
    const current = await new DataSource(options).initialize();
    try {
      await runMigrations(current);
      expect(await current.query(`SELECT token_hash, user_id FROM oauth_access_tokens`)).toEqual([{ token_hash: 'h1', user_id: 1 }]);
      await current.query(`INSERT INTO oauth_access_tokens (token_hash, client_id, user_id, scope, family_id, expires_at, created_at) VALUES ('h2', 1, NULL, 'read:startups', 'g', 2, 1)`);
      // The unique hash and the foreign keys survived the change.
      await expect(current.query(`INSERT INTO oauth_access_tokens (token_hash, client_id, user_id, scope, family_id, expires_at, created_at) VALUES ('h2', 1, NULL, 'x', 'h', 2, 1)`)).rejects.toThrow();
      await expect(current.query(`INSERT INTO oauth_access_tokens (token_hash, client_id, user_id, scope, family_id, expires_at, created_at) VALUES ('h3', 1, 999, 'x', 'h', 2, 1)`)).rejects.toThrow();
      const table = (await current.createQueryRunner().getTable('oauth_access_tokens'))!;
      expect(table.indices.map((index) => index.name).sort()).toEqual(['idx_oauth_access_expires_at', 'idx_oauth_access_family', 'idx_oauth_access_refresh']);
      await current.query(`DELETE FROM users`);
      expect(await current.query(`SELECT token_hash FROM oauth_access_tokens`)).toEqual([{ token_hash: 'h2' }]);
    } finally {
      await current.destroy();
      await storage.drop();
    }
  });

  it('record each ended session once, by its id, with an index for the purge; undone, the table goes (1763700000600)', async () => {
    const storage = await isolatedStorage();
    const options = dataSourceOptions(parseEnvironment(storage.env).database);
    const upToEnded = MIGRATIONS.slice(0, MIGRATIONS.indexOf(EndedSessions1763700000600) + 1);
    const source = await new DataSource({ ...options, migrations: upToEnded } as DataSourceOptions).initialize();
    const runner = source.createQueryRunner();
    try {
      await source.runMigrations({ transaction: 'each' });
      await source.query(`INSERT INTO ended_sessions (sid, expires_at) VALUES ('sid-1', 1)`);
      await expect(source.query(`INSERT INTO ended_sessions (sid, expires_at) VALUES ('sid-1', 2)`)).rejects.toThrow();
      const table = (await runner.getTable('ended_sessions'))!;
      expect(table.primaryColumns.map((column) => column.name)).toEqual(['sid']);
      expect(table.indices.map((index) => [index.name, index.columnNames])).toEqual([['idx_ended_sessions_expires_at', ['expires_at']]]);
      await source.undoLastMigration({ transaction: 'each' });
      expect(await runner.hasTable('ended_sessions')).toBe(false);
    } finally {
      await runner.release();
      await source.destroy();
      await storage.drop();
    }
  });

  it('mark operator clients verified and portal ones unverified, default new rows to unverified; undone, the column goes and every row and token stays (1790000000301)', async () => {
    const storage = await isolatedStorage();
    const options = dataSourceOptions(parseEnvironment(storage.env).database);
    const upToVerified = MIGRATIONS.slice(0, MIGRATIONS.indexOf(ClientVerified1790000000301) + 1);
    const insertClient = (source: DataSource, clientId: string, ownerId: number | null) =>
      source.query(`INSERT INTO oauth_clients (client_id, name, type, secret_hash, redirect_uris, scopes, created_at, owner_id) VALUES (${params(source, 8)})`, [
        clientId,
        clientId,
        'confidential',
        'h',
        '[]',
        'profile',
        1,
        ownerId,
      ]);
    const before = await new DataSource({ ...options, migrations: upToVerified.slice(0, -1) } as DataSourceOptions).initialize();
    try {
      await before.runMigrations({ transaction: 'each' });
      await before.query(`INSERT INTO users (email, name, password_hash, created_at) VALUES ('o@example.com', 'O', 'x', 1)`);
      await insertClient(before, 'cli', null);
      await insertClient(before, 'portal', 1);
      await before.query(`INSERT INTO oauth_access_tokens (token_hash, client_id, user_id, scope, family_id, expires_at, created_at) VALUES ('h1', 2, 1, 'profile', 'f', 2, 1)`);
    } finally {
      await before.destroy();
    }

    const source = await new DataSource({ ...options, migrations: upToVerified } as DataSourceOptions).initialize();
    const runner = source.createQueryRunner();
    const verifiedOf = async () =>
      ((await source.query('SELECT client_id, verified FROM oauth_clients ORDER BY id')) as Array<{ client_id: string; verified: boolean | number }>).map((row) => [
        row.client_id,
        Boolean(row.verified),
      ]);
    try {
      await source.runMigrations({ transaction: 'each' });
      expect(await verifiedOf()).toEqual([
        ['cli', true],
        ['portal', false],
      ]);
      // A row that does not say is not trusted.
      await insertClient(source, 'later', 1);
      expect((await verifiedOf())[2]).toEqual(['later', false]);

      await source.undoLastMigration({ transaction: 'each' });
      expect((await runner.getTable('oauth_clients'))!.columns.map((c) => c.name)).not.toContain('verified');
      expect((await source.query('SELECT client_id FROM oauth_clients ORDER BY id')).map((row: { client_id: string }) => row.client_id)).toEqual(['cli', 'portal', 'later']);
      // Dropped in place, not by rebuilding the table: the token that references a client stays.
      expect(await source.query('SELECT token_hash FROM oauth_access_tokens')).toEqual([{ token_hash: 'h1' }]);
    } finally {
      await runner.release();
      await source.destroy();
      await storage.drop();
    }
  });

  it('fill the sort keys and the search index for rows written before them, and undo cleanly', async () => {
    const storage = await isolatedStorage();
    const options = dataSourceOptions(parseEnvironment(storage.env).database);
    const upTo = MIGRATIONS.indexOf(NameSortKeys1763700000500);
    const names = ['Çorlu Kahve', 'İZMİR Tarım', 'corlu Yazılım', 'HR Tech Bulut', 'Healthtech Labs'];
    const oldFold = (name: string) => name.normalize('NFC').replace(/[İIı]/g, 'i').toLowerCase();
    const search = async (source: DataSource, q: string) => {
      const { page, count } = startupListSql(source.options.type === 'postgres' ? 'postgres' : 'sqlite', { q, sort: 'name', limit: 20, offset: 0 });
      const [rows, [counted]] = await Promise.all([source.query(page.text, page.values), source.query(count.text, count.values)]);
      return { names: rows.map((row: { name: string }) => row.name), total: Number(counted.total) };
    };

    const old = await new DataSource({ ...options, migrations: MIGRATIONS.slice(0, upTo) } as DataSourceOptions).initialize();
    try {
      await old.runMigrations({ transaction: 'each' });
      const [industry] = await old.query('SELECT id FROM industries ORDER BY id LIMIT 1');
      for (const [i, name] of names.entries()) {
        await old.query(`INSERT INTO startups (name, search_name, slug, description, founded_year, city, industry_id) VALUES (${params(old, 7)})`, [
          name,
          oldFold(name),
          `old-${i}`,
          '',
          2020,
          'İstanbul',
          industry.id,
        ]);
      }
    } finally {
      await old.destroy();
    }

    const current = await new DataSource(options).initialize();
    try {
      await runMigrations(current);
      await expectEverySortKeyFolded(current);
      expect(await search(current, 'CORLU')).toEqual({ names: ['Çorlu Kahve', 'corlu Yazılım'], total: 2 });
      expect(await search(current, 'izmir tarim')).toEqual({ names: ['İZMİR Tarım'], total: 1 });
      expect(await search(current, 'H')).toEqual({ names: ['Healthtech Labs', 'HR Tech Bulut'], total: 2 });

      // Down and up again: the earlier column and folding come back, then the current ones.
      // Undo every migration from the sort keys on (the newest first), whatever came after them.
      for (let i = upTo; i < MIGRATIONS.length; i++) await current.undoLastMigration({ transaction: 'each' });
      expect((await current.query('SELECT name FROM migrations')).map((row: { name: string }) => row.name)).not.toContain(NameSortKeys1763700000500.name);
      const restored: Array<{ name: string; search_name: string }> = await current.query('SELECT name, search_name FROM startups');
      for (const row of restored) expect(row.search_name).toBe(oldFold(row.name));
      await runMigrations(current);
      expect(await search(current, 'çorlu')).toEqual({ names: ['Çorlu Kahve', 'corlu Yazılım'], total: 2 });
    } finally {
      await current.destroy();
      await storage.drop();
    }
  });

  it('refold the sort keys with a word-final sigma, so that a search finds the name whatever its word breaks (1790000003801)', async () => {
    const before = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '').replace(/ı/g, 'i').toLowerCase().normalize('NFC');
    await upgradeAcross(
      FinalSigma1790000003801,
      async (old) => {
        const [industry] = await old.query('SELECT id FROM industries ORDER BY id LIMIT 1');
        await old.query(`INSERT INTO industries (name, sort_name) VALUES (${params(old, 2)})`, ['ΝΑΥΤΙΛΙΑΣ', before('ΝΑΥΤΙΛΙΑΣ')]);
        await old.query(`INSERT INTO startups (name, sort_name, slug, description, founded_year, city, industry_id) VALUES (${params(old, 7)})`, ['ΟΔΟΣ Lojistik', before('ΟΔΟΣ Lojistik'), 'odos', '', 2020, 'Atina', industry.id]);
        expect(before('ΟΔΟΣ Lojistik')).toBe('οδος lojistik');
      },
      async (current) => {
        await expectEverySortKeyFolded(current);
        const { page } = startupListSql(engine(), { q: 'οδοσ', sort: 'name', limit: 20, offset: 0 });
        expect((await current.query(page.text, page.values)).map((row: { name: string }) => row.name)).toEqual(['ΟΔΟΣ Lojistik']);
      },
    );
  });

  it('widen client_id for metadata document URLs, keeping every client, its owner key, tokens and consents; mark the clients registered (1790000003601)', async () => {
    await upgradeAcross(
      ClientMetadataDocuments1790000003601,
      async (old) => {
        await old.query(`INSERT INTO users (email, name, password_hash, created_at) VALUES ('o@example.com', 'O', 'x', 1)`);
        await old.query(`INSERT INTO oauth_clients (client_id, name, type, secret_hash, redirect_uris, scopes, created_at, owner_id) VALUES ('c', 'C', 'confidential', 'h', '[]', 'profile', 1, 1)`);
        await old.query(`INSERT INTO oauth_access_tokens (token_hash, client_id, user_id, scope, family_id, expires_at, created_at) VALUES ('h1', 1, 1, 'profile', 'f', 2, 1)`);
        await old.query(`INSERT INTO oauth_consents (user_id, client_id, scope, created_at) VALUES (1, 1, 'profile', 1)`);
      },
      async (current) => {
        expect(await current.query(`SELECT client_id, owner_id, source, metadata_document FROM oauth_clients`)).toEqual([{ client_id: 'c', owner_id: 1, source: 'registered', metadata_document: null }]);
        expect(await current.query(`SELECT token_hash FROM oauth_access_tokens`)).toEqual([{ token_hash: 'h1' }]);
        expect(await current.query(`SELECT COUNT(*) AS n FROM oauth_consents`)).toEqual([{ n: engine() === 'postgres' ? '1' : 1 }]);
        const long = `https://agents.example/${'a'.repeat(200)}.json`;
        await current.query(`INSERT INTO oauth_clients (client_id, name, type, redirect_uris, scopes, created_at, source) VALUES ('${long}', 'A', 'public', '[]', 'profile', 1, 'metadata_document')`);
        await expect(current.query(`INSERT INTO oauth_clients (client_id, name, type, redirect_uris, scopes, created_at) VALUES ('c', 'X', 'public', '[]', 'x', 1)`)).rejects.toThrow();
        // The user's clients still go with the user, and their tokens with them.
        await current.query(`DELETE FROM users WHERE id = 1`);
        expect(await current.query(`SELECT client_id FROM oauth_clients`)).toEqual([{ client_id: long }]);
        expect(await current.query(`SELECT token_hash FROM oauth_access_tokens`)).toEqual([]);
      },
    );
  });

  it("give each consent the redirect URIs it covers: one given before covers those its client has at the upgrade (1790000003901)", async () => {
    await upgradeAcross(
      ConsentRedirectUris1790000003901,
      async (old) => {
        await old.query(`INSERT INTO users (email, name, password_hash, created_at) VALUES ('o@example.com', 'O', 'x', 1)`);
        await old.query(`INSERT INTO oauth_clients (client_id, name, type, redirect_uris, scopes, created_at) VALUES ('c', 'C', 'public', '["https://app.example/cb","http://127.0.0.1/cb"]', 'profile', 1)`);
        await old.query(`INSERT INTO oauth_consents (user_id, client_id, scope, created_at) VALUES (1, 1, 'profile', 1)`);
      },
      async (current) => {
        expect(await current.query('SELECT scope, redirect_uris FROM oauth_consents')).toEqual([{ scope: 'profile', redirect_uris: '["https://app.example/cb","http://127.0.0.1/cb"]' }]);
      },
    );
  });

  it('name the owner foreign keys on SQLite as on PostgreSQL, keeping every client, key and token, and the cascade from users (1790000000951)', async () => {
    const storage = await isolatedStorage();
    const options = dataSourceOptions(parseEnvironment(storage.env).database);
    const all = options.migrations as Array<new () => MigrationInterface>;
    const before = all.slice(0, all.indexOf(OwnerForeignKeyNames1790000000951));
    const ownerKeys = async (source: DataSource) => {
      const runner = source.createQueryRunner();
      try {
        const names: Array<string | undefined> = [];
        for (const table of ['oauth_clients', 'api_keys']) {
          names.push(...(await runner.getTable(table))!.foreignKeys.filter((key) => key.columnNames.includes('owner_id')).map((key) => key.name));
        }
        return names;
      } finally {
        await runner.release();
      }
    };
    const old = await new DataSource({ ...options, migrations: before } as typeof options).initialize();
    try {
      await old.runMigrations({ transaction: 'each' });
      await old.query(`INSERT INTO users (email, name, password_hash, created_at) VALUES ('o@example.com', 'O', 'x', 1), ('p@example.com', 'P', 'x', 1)`);
      await old.query(
        `INSERT INTO oauth_clients (client_id, name, type, secret_hash, redirect_uris, scopes, created_at, owner_id) VALUES ('c', 'C', 'confidential', 'h', '[]', 'profile', 1, 1), ('d', 'D', 'public', NULL, '[]', 'profile', 1, NULL)`,
      );
      await old.query(`INSERT INTO oauth_access_tokens (token_hash, client_id, user_id, scope, family_id, expires_at, created_at) VALUES ('h1', 1, 2, 'profile', 'f', 2, 1), ('h2', 2, 2, 'profile', 'g', 2, 1)`);
      await old.query(`INSERT INTO oauth_consents (user_id, client_id, scope, created_at) VALUES (2, 1, 'profile', 1)`);
      await old.query(`INSERT INTO api_keys (name, tier, key_hash, prefix, created_at, owner_id) VALUES ('K', 'partner', 'kh', 'sp_key_abcde', 1, 1), ('L', 'standard', 'lh', 'sp_key_fghij', 1, NULL)`);
      // SQLite: api_keys' key has no name (ADD COLUMN … REFERENCES), oauth_clients' the one TypeORM gave it when
      // a later migration rebuilt the table.
      const named = ['oauth_clients_owner_id_fkey', 'api_keys_owner_id_fkey'];
      if (engine() === 'postgres') expect(await ownerKeys(old)).toEqual(named);
      else for (const [i, name] of (await ownerKeys(old)).entries()) expect(name).not.toBe(named[i]);
    } finally {
      await old.destroy();
    }
    const current = await new DataSource(options).initialize();
    try {
      await runMigrations(current);
      expect(await ownerKeys(current)).toEqual(['oauth_clients_owner_id_fkey', 'api_keys_owner_id_fkey']);
      // The rebuilt clients table kept its rows, and the tokens and consent of its clients stayed.
      expect(await current.query(`SELECT client_id, owner_id, verified FROM oauth_clients ORDER BY id`)).toEqual([
        { client_id: 'c', owner_id: 1, verified: engine() === 'postgres' ? false : 0 },
        { client_id: 'd', owner_id: null, verified: engine() === 'postgres' ? false : 0 },
      ]);
      expect(await current.query(`SELECT token_hash FROM oauth_access_tokens ORDER BY id`)).toEqual([{ token_hash: 'h1' }, { token_hash: 'h2' }]);
      expect(await current.query(`SELECT COUNT(*) AS n FROM oauth_consents`)).toEqual([{ n: engine() === 'postgres' ? '1' : 1 }]);
      // The indexes, the unique client_id and the defaults survived the rebuild.
      const clients = (await current.createQueryRunner().getTable('oauth_clients'))!;
      expect(clients.indices.map((index) => index.name)).toEqual(['idx_oauth_clients_owner']);
      await expect(current.query(`INSERT INTO oauth_clients (client_id, name, type, redirect_uris, scopes, created_at) VALUES ('c', 'X', 'public', '[]', 'x', 1)`)).rejects.toThrow();
      await current.query(`INSERT INTO oauth_clients (client_id, name, type, redirect_uris, scopes, created_at) VALUES ('e', 'E', 'public', '[]', 'x', 1)`);
      expect(await current.query(`SELECT id_token_signed_response_alg AS alg, verified, device_flow, require_par FROM oauth_clients WHERE client_id = 'e'`)).toEqual([
        engine() === 'postgres'
          ? { alg: 'RS256', verified: false, device_flow: false, require_par: false }
          : { alg: 'RS256', verified: 0, device_flow: 0, require_par: 0 },
      ]);
      expect((await current.createQueryRunner().getTable('api_keys'))!.indices.map((index) => index.name)).toEqual(['idx_api_keys_owner']);
      // The keys still refuse an unknown owner, and a user's clients and keys go with the user.
      await expect(current.query(`UPDATE api_keys SET owner_id = 999`)).rejects.toThrow();
      await current.query(`DELETE FROM users WHERE id = 1`);
      expect(await current.query(`SELECT client_id FROM oauth_clients ORDER BY id`)).toEqual([{ client_id: 'd' }, { client_id: 'e' }]);
      expect(await current.query(`SELECT name FROM api_keys`)).toEqual([{ name: 'L' }]);
      expect(await current.query(`SELECT token_hash FROM oauth_access_tokens`)).toEqual([{ token_hash: 'h2' }]);
    } finally {
      await current.destroy();
      await storage.drop();
    }
  });

  (engine() === 'sqlite' ? it : it.skip)('SQLite: refuse to rebuild the clients table while foreign keys are enforced, which would delete their tokens (1790000000951)', async () => {
    const storage = await isolatedStorage();
    const options = dataSourceOptions(parseEnvironment(storage.env).database);
    const all = options.migrations as Array<new () => MigrationInterface>;
    const source = await new DataSource({ ...options, migrations: all.slice(0, all.indexOf(OwnerForeignKeyNames1790000000951)) } as typeof options).initialize();
    const runner = source.createQueryRunner();
    try {
      await source.runMigrations({ transaction: 'each' });
      await source.query(`INSERT INTO users (email, name, password_hash, created_at) VALUES ('o@example.com', 'O', 'x', 1)`);
      await source.query(`INSERT INTO oauth_clients (client_id, name, type, secret_hash, redirect_uris, scopes, created_at) VALUES ('c', 'C', 'confidential', 'h', '[]', 'profile', 1)`);
      await source.query(`INSERT INTO oauth_access_tokens (token_hash, client_id, user_id, scope, family_id, expires_at, created_at) VALUES ('h1', 1, 1, 'profile', 'f', 2, 1)`);
      expect(await runner.query('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
      const outcome = await new OwnerForeignKeyNames1790000000951().up(runner).then(
        () => 'rebuilt',
        (error: Error) => error.message,
      );
      expect(await source.query(`SELECT token_hash FROM oauth_access_tokens`)).toEqual([{ token_hash: 'h1' }]);
      expect(outcome).toContain('foreign keys off');
    } finally {
      await runner.release();
      await source.destroy();
      await storage.drop();
    }
  });
});
