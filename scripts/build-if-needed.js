#!/usr/bin/env node
// `npm start` and `npm run cli` build first when dist/ is missing or older than any source file.
const { existsSync, statSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const { execSync } = require('node:child_process');

const root = join(__dirname, '..');
const entry = join(root, 'dist', 'main.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

if (!existsSync(entry) || newestMtime(join(root, 'src')) > statSync(entry).mtimeMs) {
  process.stderr.write('Building…\n');
  execSync('npm run --silent build', { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
