import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative, sep } from 'node:path';

/**
 * Pages are rendered by the web layer only (README.md, Architecture): services and the errors they
 * throw return outcomes, controllers and `src/web` turn them into pages and redirects. So `src/web`
 * imports no feature folder, only `common`, `config` and `database` (the column types of its
 * `ended_sessions` entity), save the types a feature's services return, which sit beside them in
 * `*.outcomes.ts` files and are imported with `import type` (erased at compile time: no feature code
 * runs in the web layer); and no service (`*.service.ts`) or error file (`*.errors.ts`) outside it
 * imports a page builder from `src/web/pages`.
 */
describe('the imports of the web layer', () => {
  const root = join(__dirname, '..', '..', 'src');

  it('src/web imports no feature folder but the types of its outcomes, and no service or error file imports src/web/pages', () => {
    expect(webLayerViolations(root)).toEqual([]);
  });

  it('every outcomes file outside src/web declares types only', () => {
    const outcomes = typeScriptFiles(root).filter((file) => file.endsWith('.outcomes.ts') && !relative(root, file).startsWith(`web${sep}`));
    expect(outcomes.length).toBeGreaterThan(0);
    for (const file of outcomes) {
      const statements = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').split('\n').filter((line) => /^(import|export)\s/.test(line));
      expect(statements.filter((line) => !/^(import type|export type|export interface)\s/.test(line))).toEqual([]);
    }
  });

  it('would name an import from src/web into a feature folder (an outcomes file included, unless imported as a type), and a service or error file importing a page', () => {
    const fixture = mkdtempSync(join(tmpdir(), 'web-imports-'));
    try {
      const files: Record<string, string> = {
        'common/text.ts': 'export const x = 1;\n',
        'oauth/thing.ts': 'export const y = 2;\n',
        'web/page.ts': "import { x } from '../common/text';\nexport const page = x;\n",
        'web/pages/sign-in.ts': "import { y } from '../../oauth/thing';\nimport type { z } from '../../clients/client.entity';\nexport const signIn = y;\n",
        'web/pages/sign-up.ts': "import type { SignUpProblem } from '../../account/sign-up.outcomes';\nimport { Unavailable } from '../../account/mail.outcomes';\n",
        'oauth/sign-in.service.ts': "import { signIn } from '../web/pages/sign-in';\nimport { page } from '../web/page';\n",
        'oauth/sign-in.controller.ts': "import { signIn } from '../web/pages/sign-in';\n",
        'oauth/authorize.errors.ts': "export { signIn } from '../web/pages/sign-in';\n",
        'oauth/device.service.ts': "import '../web/pages/device';\nconst path = './not-an-import';\n",
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(fixture, path)), { recursive: true });
        writeFileSync(join(fixture, path), text);
      }
      expect(webLayerViolations(fixture)).toEqual([
        'oauth/authorize.errors.ts imports web/pages/sign-in',
        'oauth/device.service.ts imports web/pages/device',
        'oauth/sign-in.service.ts imports web/pages/sign-in',
        'web/pages/sign-in.ts imports clients/client.entity',
        'web/pages/sign-in.ts imports oauth/thing',
        'web/pages/sign-up.ts imports account/mail.outcomes',
      ]);
    } finally {
      rmSync(fixture, { recursive: true, force: true });
    }
  });
});

/** The folders of `src/` that `src/web` may import from; every other one is a feature. */
const WEB_MAY_IMPORT = new Set(['web', 'common', 'config', 'database']);

/** Each forbidden import under `root` (a `src/` folder), as "file imports module", paths relative to it, sorted. */
function webLayerViolations(root: string): string[] {
  const found: string[] = [];
  for (const file of typeScriptFiles(root)) {
    const from = relative(root, file).split(sep).join('/');
    const text = readFileSync(file, 'utf8');
    const imports = [...text.matchAll(/(?:^|\n)\s*(import|export)\s(type\s)?(?:[^;]*?from\s+)?'(\.[^']+)'|(?:import|require)\(\s*'(\.[^']+)'\s*\)/g)].map((m) => ({
      specifier: m[3] ?? m[4],
      typeOnly: m[1] === 'import' && m[2] !== undefined,
    }));
    for (const { specifier, typeOnly } of imports) {
      const to = relative(root, normalize(join(dirname(file), specifier))).split(sep).join('/');
      const webFile = from.startsWith('web/');
      const serviceOrErrors = /\.(service|errors)\.ts$/.test(from);
      const outcomeTypes = typeOnly && to.endsWith('.outcomes');
      if (webFile && !WEB_MAY_IMPORT.has(to.split('/')[0]) && !outcomeTypes) found.push(`${from} imports ${to}`);
      else if (!webFile && serviceOrErrors && (to === 'web/pages' || to.startsWith('web/pages/'))) found.push(`${from} imports ${to}`);
    }
  }
  return found.sort();
}

function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return entry.name.endsWith('.ts') && existsSync(path) && statSync(path).isFile() ? [path] : [];
  });
}
