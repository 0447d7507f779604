// The process-level suites (CLI, start-up, shutdown, the example programs) run the built service exactly
// as it ships. They build it on first use (test/helpers/processes.ts, `builtDist`), into a folder of this
// run only: `.test-build/<run id>/dist`. So a run that spawns no process builds nothing, and two runs at
// once (two checkouts, or `npm test` twice) never read a dist/ the other is rewriting, nor the dist/ that
// `npm start` uses. Here the run gets its id, which the test workers inherit, and the folders of runs
// whose Jest process is gone (killed before its teardown) are removed.
const { existsSync, readdirSync, rmSync } = require('node:fs');
const { randomBytes } = require('node:crypto');
const { join } = require('node:path');

const BUILD_ROOT = join(__dirname, '..', '..', '.test-build');

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

module.exports = async () => {
  process.env.TEST_RUN_ID = `${process.pid}-${randomBytes(4).toString('hex')}`;
  for (const name of existsSync(BUILD_ROOT) ? readdirSync(BUILD_ROOT) : []) {
    const pid = Number(name.split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) rmSync(join(BUILD_ROOT, name), { recursive: true, force: true });
  }
};
module.exports.BUILD_ROOT = BUILD_ROOT;
