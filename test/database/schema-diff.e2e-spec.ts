import { DataSource } from 'typeorm';
import { engine, startTestApp, TestApp } from '../helpers/test-app';

/**
 * The entities declare everything the migrations made (docs/add-a-module.md, "Data access"): indexes with
 * their names (partial and unique ones included), unique constraints, foreign keys with their ON DELETE,
 * column types, defaults and nullability. On a database migrated by the project's own migrations,
 * TypeORM's schema builder (what `migration:generate` and `schema:log` run) then wants no statement at
 * all. Any statement it would run is printed: left there, the next generated migration would run it,
 * dropping an index or a foreign key, or rebuilding a table.
 */
describe(`the schema builder finds nothing to change on a freshly migrated database (${engine()})`, () => {
  let app: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    app = await startTestApp();
    dataSource = app.app.get(DataSource);
  });
  afterAll(() => app.close());

  it('wants no statement', async () => {
    const { upQueries } = await dataSource.driver.createSchemaBuilder().log();
    const statements = upQueries.map((query) => query.query);
    if (statements.length > 0) {
      console.log(`${statements.length} statement(s) the schema builder would run on ${engine()}:\n${statements.join(';\n')};`);
    }
    expect(statements).toEqual([]);
  });
});
