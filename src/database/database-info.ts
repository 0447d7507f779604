import { Injectable } from '@nestjs/common';
import type { Pool as PgPool } from 'pg';
import { DataSource } from 'typeorm';
import { createdThisStart } from './migrate';

/** The few facts about the connection that code outside the data layer needs (docs/add-a-module.md, "Data access"). */
@Injectable()
export class DatabaseInfo {
  constructor(private readonly dataSource: DataSource) {}

  /** Whether this process's start created the schema, i.e. the database was new and empty. */
  createdThisStart(): boolean {
    return createdThisStart(this.dataSource);
  }

  /**
   * node-postgres's pool, whose counts the metrics report; none on SQLite. `driver.master` is a TypeORM
   * internal (see test/database/typeorm-internals.e2e-spec.ts).
   */
  postgresPool(): PgPool | undefined {
    if (this.dataSource.options.type !== 'postgres') return undefined;
    return (this.dataSource.driver as unknown as { master: PgPool }).master;
  }
}
