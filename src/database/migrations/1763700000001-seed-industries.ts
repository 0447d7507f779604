import { MigrationInterface, QueryRunner } from 'typeorm';
import { param, params } from '../sql';

/** The sectors of the Turkish startup ecosystem, as the platform lists them. */
export const INDUSTRY_NAMES = [
  'Agritech',
  'Biotech',
  'Cleantech',
  'Cybersecurity',
  'Deep Tech',
  'E-commerce',
  'Edtech',
  'Energy',
  'Fintech',
  'Foodtech',
  'Gaming',
  'Healthtech',
  'HR Tech',
  'Insurtech',
  'IoT',
  'Legaltech',
  'Logistics',
  'Marketplace',
  'Media & Entertainment',
  'Mobility',
  'Proptech',
  'Retail Tech',
  'SaaS',
  'Artificial Intelligence',
  'Travel & Hospitality',
  'Web3 & Blockchain',
];

export class SeedIndustries1763700000001 implements MigrationInterface {
  name = 'SeedIndustries1763700000001';

  async up(q: QueryRunner): Promise<void> {
    for (const name of INDUSTRY_NAMES) {
      await q.query(`INSERT INTO industries (name) VALUES (${param(q, 1)})`, [name]);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM industries WHERE name IN (${params(q, INDUSTRY_NAMES.length)})`, INDUSTRY_NAMES);
  }
}
