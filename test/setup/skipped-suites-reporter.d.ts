/** The part of Jest's per-file result the summary reads. */
export interface SuiteFileResult {
  testFilePath: string;
  numPassingTests: number;
  numFailingTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testExecError?: unknown;
}

export function skippedSuitesSummary(testResults: SuiteFileResult[], rootDir: string, env: Record<string, string | undefined>): string;
