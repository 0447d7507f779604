import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { engine } from '../helpers/test-app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const GUIDE = join(ROOT, 'docs', 'add-a-module.md');

/**
 * The guide's whole files: its `ts` code blocks whose first line names the file (`// src/…`), and its
 * `eta` views whose first line is a comment naming the view (`<%/* views/….eta: … *\/%>`).
 */
export function guideFiles(markdown: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const match of markdown.matchAll(/```ts\n\/\/ ((?:src|test)\/[^\n]+\.ts)\n([\s\S]*?)```/g)) files.set(match[1], match[2]);
  for (const match of markdown.matchAll(/```eta\n(<%\/\* (views\/[^\n:]+\.eta):[\s\S]*?)```/g)) files.set(match[2], match[1]);
  return files;
}

/** One edit the guide describes in words, applied where it says; an anchor that moved fails the test. */
function edit(dir: string, file: string, anchor: string | RegExp, replace: (found: string) => string): void {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  const found = typeof anchor === 'string' ? (text.includes(anchor) ? anchor : undefined) : anchor.exec(text)?.[0];
  if (found === undefined) throw new Error(`docs/add-a-module.md: ${file} no longer has ${String(anchor)}`);
  writeFileSync(path, text.replace(found, replace(found)));
}

// Once, on SQLite: the guide's steps do not depend on the database, and its tests run on SQLite.
const once = engine() === 'sqlite' ? describe : describe.skip;

/**
 * docs/add-a-module.md, followed as written on a copy of the project (its sources, tests, views and
 * configuration; node_modules linked): the files it gives, the edits it describes, then the type-check
 * and the new module's unit spec and e2e suite it tells the reader to run.
 */
once('docs/add-a-module.md followed as written', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sp-add-a-module-'));
    for (const name of ['src', 'test', 'views', 'client', 'docs', 'examples']) cpSync(join(ROOT, name), join(dir, name), { recursive: true });
    for (const name of ['tsconfig.json', 'jest.config.js', 'package.json', 'eslint.config.mjs']) cpSync(join(ROOT, name), join(dir, name));
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'), 'dir');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives every file, a migration newer than the existing ones, and an example name no test uses', () => {
    const files = guideFiles(readFileSync(GUIDE, 'utf8'));
    expect([...files.keys()].sort()).toEqual([
      'src/database/migrations/1800000000000-investors.ts',
      'src/investors/dto/investor.dto.ts',
      'src/investors/dto/list-investors.query.dto.ts',
      'src/investors/investor.entity.ts',
      'src/investors/investors.controller.ts',
      'src/investors/investors.module.ts',
      'src/investors/investors.repository.ts',
      'src/investors/investors.service.spec.ts',
      'src/investors/investors.service.ts',
      'src/investors/investor-pages.controller.ts',
      'src/investors/suggest-investor.form.ts',
      'src/web/pages/investors/suggest-investor-messages.ts',
      'src/web/pages/investors/suggest-investor-page.ts',
      'test/public-api/investors.e2e-spec.ts',
      'test/web/investor-pages.browser.e2e-spec.ts',
      'test/web/investor-pages.e2e-spec.ts',
      'views/investors/suggest-investor.eta',
    ].sort());
    // No test of the project uses the guide's example, so that following it breaks nothing.
    const users = execFileSync('git', ['grep', '--untracked', '-l', '-i', 'investor', '--', 'src', 'test', 'client'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(users).toEqual(['test/docs/add-a-module-guide.e2e-spec.ts']);
    const stamps = readFileSync(join(ROOT, 'src/database/migrations/index.ts'), 'utf8').match(/\d{13}/g)!.map(Number);
    expect(1800000000000).toBeGreaterThan(Math.max(...stamps));
  });

  it('type-checks and passes the new module\'s tests', async () => {
    for (const [file, text] of guideFiles(readFileSync(GUIDE, 'utf8'))) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    // "Add the migration at the end of MIGRATIONS", "Import InvestorsModule in src/app.module.ts", ".addTag('investors', …)".
    edit(dir, 'src/database/migrations/index.ts', /\n\];\s*$/, (end) => `\n  Investors1800000000000,${end}`);
    edit(dir, 'src/database/migrations/index.ts', /^import /m, (start) => `import { Investors1800000000000 } from './1800000000000-investors';\n${start}`);
    edit(dir, 'src/app.module.ts', /^import /m, (start) => `import { InvestorsModule } from './investors/investors.module';\n${start}`);
    edit(dir, 'src/app.module.ts', /imports: \[\n/, (start) => `${start}    InvestorsModule,\n`);
    // Section 8: "import WebModule … and list InvestorPagesController after InvestorsController".
    edit(dir, 'src/investors/investors.module.ts', 'imports: [TypeOrmModule.forFeature([Investor])]', () => 'imports: [TypeOrmModule.forFeature([Investor]), WebModule]');
    edit(dir, 'src/investors/investors.module.ts', 'controllers: [InvestorsController]', () => 'controllers: [InvestorsController, InvestorPagesController]');
    edit(dir, 'src/investors/investors.module.ts', /^import /m, (start) => `import { WebModule } from '../web/web.module';\nimport { InvestorPagesController } from './investor-pages.controller';\n${start}`);
    edit(dir, 'src/common/openapi/swagger.ts', ".addTag('health',", (tag) => `.addTag('investors', 'Who invests in startups.')\n    ${tag}`);

    const env: NodeJS.ProcessEnv = { ...process.env, TEST_DATABASE_URL: '', TEST_REDIS_URL: '', CI: 'true' };
    delete env.TEST_RUN_ID;
    await run(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], { cwd: dir, env, maxBuffer: 16 << 20 }).catch((error) => {
      throw new Error(`tsc failed after the guide:\n${error.stdout}${error.stderr}`);
    });
    // The guide's files keep to the lint's rules, the data layer's among them (TypeORM only in the repository).
    await run(process.execPath, [join(dir, 'node_modules/eslint/bin/eslint.js'), 'src/investors', 'test/public-api/investors.e2e-spec.ts'], { cwd: dir, env, maxBuffer: 16 << 20 }).catch((error) => {
      throw new Error(`eslint failed after the guide:\n${error.stdout}${error.stderr}`);
    });
    const tests = await run(
      process.execPath,
      [join(dir, 'node_modules/jest/bin/jest.js'), 'src/investors', 'test/public-api/investors.e2e-spec.ts', 'test/web/investor-pages', '--selectProjects', 'unit', 'e2e:sqlite', '--maxWorkers=1', '--ci'],
      { cwd: dir, env, maxBuffer: 16 << 20 },
    ).catch((error) => {
      throw new Error(`the new module's tests failed:\n${error.stdout}${error.stderr}`);
    });
    // The browser suite is skipped where there is no Chromium (test/helpers/browser.ts).
    expect(tests.stderr).toMatch(/Tests:\s+(4 skipped, 6|10) passed, 10 total/);
  }, 600_000);
});
