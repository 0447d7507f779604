// The process-level suites (CLI, start-up, shutdown) run the built service exactly as it ships, so the
// test run builds dist/ once before any suite starts.
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

module.exports = async () => {
  const root = join(__dirname, '..', '..');
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
};
