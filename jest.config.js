const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

/**
 * Unit specs live beside the code (src/**\/*.spec.ts); e2e suites boot the real app over HTTP
 * (test/**\/*.e2e-spec.ts). The e2e suites run on a temp SQLite file, and again on PostgreSQL (and
 * Redis) when TEST_DATABASE_URL (and TEST_REDIS_URL) are set.
 */
// Packages published only as ES modules (Nest 12 itself, the OAuth libraries the e2e suites drive the
// server with, and a few of their dependencies). Node loads them from CommonJS with require(esm); Jest's
// own module loader cannot, so they are compiled to CommonJS like the suites themselves. The list is read
// from node_modules, so that an upgrade which turns another dependency into an ES module needs no edit.
const ESM_PACKAGES = esModulePackages(join(__dirname, 'node_modules'));

const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
  [`node_modules/(${ESM_PACKAGES.join('|')})/.+\\.js$`]: '<rootDir>/test/setup/esm-to-cjs.js',
};
const base = {
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'json'],
  // Each run's build of the service (test/setup/build.js) is run by node, never loaded by Jest.
  modulePathIgnorePatterns: ['<rootDir>/.test-build/'],
};

const projects = [
  { ...base, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
  { ...base, displayName: 'e2e:sqlite', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'], setupFiles: ['<rootDir>/test/setup/sqlite.ts'] },
];
if (process.env.TEST_DATABASE_URL) {
  projects.push({
    ...base,
    displayName: 'e2e:postgres',
    testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
    setupFiles: ['<rootDir>/test/setup/postgres.ts'],
  });
}

module.exports = {
  projects,
  globalSetup: '<rootDir>/test/setup/build.js',
  globalTeardown: '<rootDir>/test/setup/teardown.js',
  // A budget against hangs, not a measure of speed: booting the app (its modules compiled by ts-jest,
  // its migrations run) in a suite's beforeAll took over 30 s with two runs of the suites at once on
  // two cores. Suites that run the built programs or Chromium set larger ones.
  testTimeout: 120000,
  maxWorkers: 2,
  // After Jest's summary, a line per group of suites that did not run here, and why.
  reporters: ['default', '<rootDir>/test/setup/skipped-suites-reporter.js'],
};

/** Names of the installed packages whose `.js` files are ES modules (`"type": "module"`). */
function esModulePackages(root) {
  const names = [];
  const visit = (dir, scope) => {
    for (const entry of existsSync(dir) ? readdirSync(dir) : []) {
      if (entry.startsWith('.')) continue;
      if (!scope && entry.startsWith('@')) {
        visit(join(dir, entry), entry);
        continue;
      }
      const manifest = join(dir, entry, 'package.json');
      if (!existsSync(manifest)) continue;
      if (JSON.parse(readFileSync(manifest, 'utf8')).type === 'module') names.push(scope ? `${scope}/${entry}` : entry);
    }
  };
  visit(root, undefined);
  return names.map((name) => name.replace(/[.]/g, '\\.'));
}
