const { existsSync } = require('node:fs');
const { relative } = require('node:path');

/**
 * Ends `npm test` with what it did not run: every suite file whose tests were all skipped, grouped by the
 * part of the machine it needs, with the reason and how to supply it. Jest's own summary only counts
 * skipped suites, which made "every suite passed" read truer than it was on a machine without Chromium,
 * PostgreSQL or Redis.
 */
class SkippedSuitesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const text = skippedSuitesSummary(results.testResults, this.rootDir, process.env);
    // Jest prints its own summary after every reporter; these lines come after it, last.
    process.once('exit', () => process.stderr.write(`\n${text}\n`));
  }
}

/**
 * The lines the reporter prints for Jest's per-file results. A file counts as skipped only if no project
 * ran any of its tests: the suites that need PostgreSQL are skipped by the SQLite project by design and
 * run in the PostgreSQL one.
 */
function skippedSuitesSummary(testResults, rootDir, env) {
  const ran = new Map();
  for (const file of testResults) {
    const path = relative(rootDir, file.testFilePath);
    const skipped = file.numPendingTests + file.numTodoTests;
    const ranHere = Boolean(file.testExecError) || skipped === 0 || file.numPassingTests + file.numFailingTests > 0;
    ran.set(path, (ran.get(path) ?? false) || ranHere);
  }
  const groups = new Map();
  for (const [path, ranSomewhere] of ran) {
    if (ranSomewhere) continue;
    const group = groupOf(path, env);
    groups.set(group.name, { ...group, count: (groups.get(group.name)?.count ?? 0) + 1 });
  }
  if (groups.size === 0) return 'Skipped suites: none.';
  const lines = [...groups.values()].map((group) => `  - ${group.name} (${group.count} file${group.count === 1 ? '' : 's'}): ${group.reason}`);
  return ['Skipped suites (every test in them skipped):', ...lines].join('\n');
}

function groupOf(path, env) {
  // The default of test/helpers/browser.ts.
  const chromium = env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (path.includes('.browser.') && !existsSync(chromium)) {
    return { name: 'browser suites', reason: `no Chromium at ${chromium} (install Debian's chromium package, or set CHROMIUM_PATH)` };
  }
  if (!env.TEST_DATABASE_URL) {
    return { name: 'PostgreSQL suites (several instances on one database)', reason: 'TEST_DATABASE_URL is not set' };
  }
  if (!env.TEST_REDIS_URL) {
    return { name: 'Redis suites', reason: 'TEST_REDIS_URL is not set' };
  }
  return { name: 'other suites', reason: 'every test in them was skipped; see the suite for the condition it needs' };
}

module.exports = SkippedSuitesReporter;
module.exports.skippedSuitesSummary = skippedSuitesSummary;
