#!/usr/bin/env node
// `npm start` and `npm run cli` build first when dist/ is missing or older than any source file.
//
//   node scripts/build-if-needed.js            build if needed
//   node scripts/build-if-needed.js cli ARGS   build if needed, then run dist/cli.js ARGS
//
// SP_DIST_DIR names a build to run as it is, instead of dist/ (the test suites run programs that call
// `npm run cli` against a build of their own, and must not rebuild the dist/ another run may be using).
const { existsSync, statSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const { execSync, spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
const dist = process.env.SP_DIST_DIR || join(root, 'dist');
const entry = join(dist, 'main.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

if (!process.env.SP_DIST_DIR && (!existsSync(entry) || newestMtime(join(root, 'src')) > statSync(entry).mtimeMs)) {
  process.stderr.write('Building…\n');
  execSync('npm run --silent build', { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

const [program, ...args] = process.argv.slice(2);
if (program) {
  const result = spawnSync(process.execPath, [join(dist, `${program}.js`), ...args], { stdio: 'inherit' });
  if (result.error) throw result.error;
  process.exitCode = result.status ?? 1;
}
