/**
 * A standalone data source for the TypeORM CLI, e.g.
 *   npx typeorm migration:show -d dist/database/data-source.js
 *   npx typeorm schema:log -d dist/database/data-source.js
 * It reads the same environment (and `.env`) as the service, and loads every entity of the build, so
 * that `schema:log` and `migration:generate` compare them with the migrated schema (on a database the
 * migrations made, they find nothing to change: docs/add-a-module.md, section 2).
 */
import 'reflect-metadata';
import 'dotenv/config';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { configuration } from '../config/configuration';
import { dataSourceOptions } from './data-source-options';

export default new DataSource({ ...dataSourceOptions(configuration().database), entities: [join(__dirname, '..', '**', '*.entity.js')] });
