/**
 * A standalone data source for the TypeORM CLI, e.g.
 *   npx typeorm migration:show -d dist/database/data-source.js
 * It reads the same environment (and `.env`) as the service.
 */
import 'reflect-metadata';
import 'dotenv/config';
import { DataSource } from 'typeorm';
import { configuration } from '../config/configuration';
import { dataSourceOptions } from './data-source-options';

export default new DataSource(dataSourceOptions(configuration().database));
