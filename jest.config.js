/**
 * Unit specs live beside the code (src/**\/*.spec.ts); e2e suites boot the real app over HTTP
 * (test/**\/*.e2e-spec.ts). The e2e suites run on a temp SQLite file, and again on PostgreSQL (and
 * Redis) when TEST_DATABASE_URL (and TEST_REDIS_URL) are set.
 */
// oauth4webapi (the independent OAuth client the e2e suites drive the server with) ships only as ES
// modules; it is compiled to CommonJS like the suites themselves.
const ESM_PACKAGES = ['oauth4webapi', 'jose', 'openid-client'];
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
  [`node_modules/(${ESM_PACKAGES.join('|')})/.+\\.js$`]: ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022' }, isolatedModules: true }],
};
const base = {
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'json'],
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

module.exports = { projects, globalSetup: '<rootDir>/test/setup/build.js', testTimeout: 30000, maxWorkers: 2 };
