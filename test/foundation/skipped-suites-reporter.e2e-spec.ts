import { skippedSuitesSummary, SuiteFileResult } from '../setup/skipped-suites-reporter';

/** What `npm test` prints last: the suites that did not run on this machine, and why (README.md, Tests). */
describe('the skipped-suites line of npm test', () => {
  const root = '/repo';
  const file = (path: string, counts: Partial<SuiteFileResult>): SuiteFileResult => ({
    testFilePath: `${root}/${path}`,
    numPassingTests: 0,
    numFailingTests: 0,
    numPendingTests: 0,
    numTodoTests: 0,
    ...counts,
  });
  const everything = { TEST_DATABASE_URL: 'postgres://db/test', TEST_REDIS_URL: 'redis://cache', CHROMIUM_PATH: process.execPath };

  it('names each group whose suites ran nowhere, with the reason', () => {
    const results = [
      file('test/oauth/pages.browser.e2e-spec.ts', { numPendingTests: 4 }),
      file('test/account/account.browser.e2e-spec.ts', { numPendingTests: 2 }),
      file('test/oauth/dpop-two-instances.e2e-spec.ts', { numPendingTests: 3 }),
      file('test/public-api/industries.e2e-spec.ts', { numPassingTests: 9 }),
    ];
    expect(skippedSuitesSummary(results, root, { CHROMIUM_PATH: '/nowhere/chromium' }).split('\n')).toEqual([
      'Skipped suites (every test in them skipped):',
      "  - browser suites (2 files): no Chromium at /nowhere/chromium (install Debian's chromium package, or set CHROMIUM_PATH)",
      '  - PostgreSQL suites (several instances on one database) (1 file): TEST_DATABASE_URL is not set',
    ]);
  });

  it('does not count a suite skipped by one project and run by another, nor one that ran in part', () => {
    const results = [
      file('test/oauth/dpop-two-instances.e2e-spec.ts', { numPendingTests: 3 }),
      file('test/oauth/dpop-two-instances.e2e-spec.ts', { numPassingTests: 3 }),
      file('test/oauth/sign-in-throttle-two-instances.e2e-spec.ts', { numPassingTests: 2, numPendingTests: 1 }),
    ];
    expect(skippedSuitesSummary(results, root, everything)).toBe('Skipped suites: none.');
  });

  it('says when Redis is what is missing', () => {
    const results = [file('test/reliability/instances.e2e-spec.ts', { numPendingTests: 5 })];
    expect(skippedSuitesSummary(results, root, { ...everything, TEST_REDIS_URL: undefined })).toBe(
      'Skipped suites (every test in them skipped):\n  - Redis suites (1 file): TEST_REDIS_URL is not set',
    );
  });
});
