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
    // A file counts as skipped only if no project ran any of its tests: the suites that need PostgreSQL
    // are skipped by the SQLite project by design and run in the PostgreSQL one.
    const files = new Map();
    for (const file of results.testResults) {
      const path = relative(this.rootDir, file.testFilePath);
      const total = file.numPassingTests + file.numFailingTests + file.numPendingTests + file.numTodoTests;
      const ran = Boolean(file.testExecError) || total === 0 || file.numPendingTests + file.numTodoTests < total;
      files.set(path, (files.get(path) ?? false) || ran);
    }
    const groups = new Map();
    for (const [path, ran] of files) {
      if (ran) continue;
      const group = groupOf(path);
      const entry = groups.get(group.name) ?? { ...group, count: 0 };
      entry.count += 1;
      groups.set(group.name, entry);
    }
    const lines = [...groups.values()].map((group) => `  - ${group.name} (${group.count} file${group.count === 1 ? '' : 's'}): ${group.reason}`);
    const text = lines.length === 0 ? 'Skipped suites: none.' : ['Skipped suites (every test in them skipped):', ...lines].join('\n');
    // Jest prints its own summary after every reporter; these lines come after it, last.
    process.once('exit', () => process.stderr.write(`\n${text}\n`));
  }
}

function groupOf(path) {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (path.includes('.browser.') && !existsSync(chromium)) {
    return { name: 'browser suites', reason: `no Chromium at ${chromium} (install Debian's chromium package, or set CHROMIUM_PATH)` };
  }
  if (!process.env.TEST_DATABASE_URL) {
    return { name: 'PostgreSQL suites (several instances on one database)', reason: 'TEST_DATABASE_URL is not set' };
  }
  if (!process.env.TEST_REDIS_URL) {
    return { name: 'Redis suites', reason: 'TEST_REDIS_URL is not set' };
  }
  return { name: 'other suites', reason: 'every test in them was skipped; see the suite for the condition it needs' };
}

module.exports = SkippedSuitesReporter;
