import { DataSource } from 'typeorm';
import { parseEnvironment } from '../../src/config/configuration';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { createdThisStart, runMigrations } from '../../src/database/migrate';
import { engine, isolatedStorage } from '../helpers/test-app';

describe('migrations (CONTRACT §5)', () => {
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
});
