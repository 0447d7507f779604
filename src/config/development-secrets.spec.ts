import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnvironment, withKeptSecrets } from './configuration';
import { keptSecrets } from './development-secrets';

describe('development secrets (docs/configuration-and-deployment.md, Development secrets)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sp-secrets-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('makes the file once (mode 0600, in a folder it creates) and reads the same secrets afterwards', () => {
    const file = join(dir, 'data', '.secrets.json');
    const made = keptSecrets(file);
    expect(made.SESSION_SECRET).not.toBe(made.KEY_ENCRYPTION_SECRET);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(keptSecrets(file)).toEqual(made);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(made);
  });

  it('refuses a file that is not what it made, naming it, and changes nothing', () => {
    const file = join(dir, '.secrets.json');
    for (const text of ['not json', '{"SESSION_SECRET":"short","KEY_ENCRYPTION_SECRET":"short"}', '[]']) {
      writeFileSync(file, text);
      expect(() => keptSecrets(file)).toThrow(`DEV_SECRETS_FILE: ${file} is not a JSON object with SESSION_SECRET and KEY_ENCRYPTION_SECRET`);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
  });

  it('keeps the unset secrets beside the SQLite file outside production; never in production, never with DEV_SECRETS_FILE=off', () => {
    const sqlite = join(dir, 'platform.sqlite');
    expect(parseEnvironment({ SQLITE_PATH: sqlite }).app.devSecretsFile).toBe(join(dir, '.secrets.json'));
    const one = withKeptSecrets(parseEnvironment({ SQLITE_PATH: sqlite, SESSION_SECRET: 's'.repeat(32) }));
    const two = withKeptSecrets(parseEnvironment({ SQLITE_PATH: sqlite }));
    expect(one.auth).toMatchObject({ sessionSecret: 's'.repeat(32), sessionSecretKept: false });
    expect(one.oidc).toMatchObject({ keyEncryptionSecret: two.oidc.keyEncryptionSecret, keyEncryptionSecretGenerated: true, keyEncryptionSecretKept: true });
    expect(two.auth).toMatchObject({ sessionSecret: keptSecrets(join(dir, '.secrets.json')).SESSION_SECRET, sessionSecretKept: true });
    expect(parseEnvironment({ SQLITE_PATH: sqlite, DEV_SECRETS_FILE: 'off' }).app.devSecretsFile).toBeUndefined();
    expect(parseEnvironment({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32), KEY_ENCRYPTION_SECRET: 'k'.repeat(32), SQLITE_PATH: sqlite }).app.devSecretsFile).toBeUndefined();
  });
});
