import { DataSource } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { engine, startTestApp, TestApp } from '../helpers/test-app';

/** What the database says of one column, and what an entity says of it, in the same words. */
interface ColumnShape {
  nullable: boolean;
  family: string;
  primary: boolean;
}

/**
 * The entities and the migrated schema say the same thing (docs/add-a-module.md, "Data access"): the
 * app is started on a fresh database, which runs every migration, and each entity the app registers is
 * compared with its table as the database reports it (SQLite: PRAGMA table_info; PostgreSQL:
 * information_schema): the same columns, each with the same nullability, type family and primary key.
 * A column added to an entity without a migration, a migration that adds, drops or changes a column
 * without the entity, or an entity whose table does not exist, fails here on the engine it drifts on.
 */
describe('the entities match the migrated schema', () => {
  let app: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    app = await startTestApp();
    dataSource = app.app.get(DataSource);
  });
  afterAll(() => app.close());

  it('every migrated table has an entity, apart from the ones read and written only as SQL', async () => {
    const entityTables = new Set(dataSource.entityMetadatas.map((entity) => entity.tableName));
    const withoutEntity = (await tables(dataSource)).filter((table) => !entityTables.has(table)).sort();
    expect(withoutEntity).toEqual(
      [
        // TypeORM's own record of the migrations run.
        'migrations',
        // The full-text index of startup names (SQLite FTS5) and its shadow tables; PostgreSQL indexes the column instead.
        ...(engine() === 'sqlite' ? SQLITE_SEARCH_TABLES : []),
      ].sort(),
    );
  });

  it('each entity has exactly the columns of its table, with the same nullability, type family and primary key', async () => {
    const differences: string[] = [];
    for (const entity of dataSource.entityMetadatas) {
      const actual = await columnsOf(dataSource, entity.tableName);
      if (actual.size === 0) {
        differences.push(`${entity.tableName}: no such table`);
        continue;
      }
      const expected = new Map(entity.columns.map((column) => [column.databaseName, shapeOf(dataSource, column)]));
      for (const [name, shape] of expected) {
        const found = actual.get(name);
        if (!found) differences.push(`${entity.tableName}.${name}: in the entity, not in the table`);
        else if (JSON.stringify(found) !== JSON.stringify(shape)) {
          differences.push(`${entity.tableName}.${name}: entity ${JSON.stringify(shape)}, table ${JSON.stringify(found)}`);
        }
      }
      for (const name of actual.keys()) {
        if (!expected.has(name)) differences.push(`${entity.tableName}.${name}: in the table, not in the entity`);
      }
    }
    expect(differences).toEqual([]);
  });
});

const SQLITE_SEARCH_TABLES = ['startups_search', 'startups_search_config', 'startups_search_data', 'startups_search_docsize', 'startups_search_idx'];

/** A column type as one family, so that the names each engine and TypeORM give one type compare equal. */
function family(type: string): string {
  const t = type.toLowerCase().replace(/\(.*\)$/, '').trim();
  if (/^(int|integer|int2|int4|int8|smallint|bigint)$/.test(t)) return 'integer';
  if (/^(varchar|character varying|nvarchar|char|character|text|uuid)$/.test(t)) return 'text';
  if (/^(boolean|bool)$/.test(t)) return 'boolean';
  if (/^(real|float|float4|float8|double|double precision|numeric|decimal)$/.test(t)) return 'number';
  if (/^(json|jsonb|simple-json)$/.test(t)) return 'json';
  if (/^(date|datetime|timestamp|timestamp without time zone|timestamp with time zone|timestamptz)$/.test(t)) return 'time';
  return t;
}

function shapeOf(dataSource: DataSource, column: ColumnMetadata): ColumnShape {
  return { nullable: column.isNullable, family: family(dataSource.driver.normalizeType(column)), primary: column.isPrimary };
}

async function tables(dataSource: DataSource): Promise<string[]> {
  if (engine() === 'sqlite') {
    const rows: Array<{ name: string }> = await dataSource.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
    return rows.map((row) => row.name);
  }
  const rows: Array<{ table_name: string }> = await dataSource.query(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
  );
  return rows.map((row) => row.table_name);
}

async function columnsOf(dataSource: DataSource, table: string): Promise<Map<string, ColumnShape>> {
  if (engine() === 'sqlite') {
    const rows: Array<{ name: string; type: string; notnull: number; pk: number }> = await dataSource.query(`PRAGMA table_info("${table}")`);
    // SQLite lets a primary key column hold NULL unless it says NOT NULL, except an INTEGER PRIMARY KEY (the rowid).
    return new Map(rows.map((row) => [row.name, { nullable: row.notnull === 0 && row.pk === 0, family: family(row.type), primary: row.pk > 0 }]));
  }
  const rows: Array<{ column_name: string; data_type: string; is_nullable: string; primary: boolean }> = await dataSource.query(
    `SELECT c.column_name, c.data_type, c.is_nullable,
            EXISTS (SELECT 1 FROM information_schema.table_constraints tc
                    JOIN information_schema.key_column_usage k ON k.constraint_name = tc.constraint_name AND k.table_schema = tc.table_schema
                    WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_schema = c.table_schema AND tc.table_name = c.table_name
                      AND k.column_name = c.column_name) AS primary
     FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = $1`,
    [table],
  );
  return new Map(rows.map((row) => [row.column_name, { nullable: row.is_nullable === 'YES', family: family(row.data_type), primary: row.primary }]));
}
