/**
 * Waits for something the server does beside a request (a write after the answer): polls `check`
 * until it returns a value other than null or undefined, and returns it. There is no deadline of its
 * own: a busy machine only makes the wait longer, and the test's timeout ends a wait that never ends.
 */
export async function eventually<T>(check: () => Promise<T | null | undefined>): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== null && value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
