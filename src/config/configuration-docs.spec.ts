import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** Every variable parseEnvironment reads, by its name in the source. */
function variablesRead(): string[] {
  return [...new Set([...read('src/config/configuration.ts').matchAll(/\(env, '([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1]))].sort();
}

describe('the configuration documents', () => {
  it('finds the variables the service reads', () => {
    expect(variablesRead()).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'REFRESH_TOKEN_GRACE_PERIOD']));
  });

  it('lists every variable in .env.example and nothing else', () => {
    const listed = [...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]).sort();
    expect(listed).toEqual(variablesRead());
  });

  it('explains every variable in the README table', () => {
    const table = read('README.md').split('## Configuration')[1].split('\n## ')[0];
    const missing = variablesRead().filter((name) => !table.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
