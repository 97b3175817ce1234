// Applies a Temporal-style retry policy to plain async functions, for the in-process runner.
export interface RetryPolicy {
  initialIntervalMs: number;
  backoffCoefficient: number;
  maximumIntervalMs: number;
  maximumAttempts: number;
}

/** Temporal's ApplicationFailure.nonRetryable(...) carries this flag; such failures are final at once. */
const isNonRetryable = (error: unknown) => (error as { nonRetryable?: boolean } | null)?.nonRetryable === true;

export async function withRetry<T>(policy: RetryPolicy, run: () => Promise<T>, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (isNonRetryable(error) || attempt >= policy.maximumAttempts) throw error;
      await sleep(Math.min(policy.initialIntervalMs * policy.backoffCoefficient ** (attempt - 1), policy.maximumIntervalMs));
    }
  }
}

/** The same functions, each call retried under the policy (what Temporal does for activities). */
export function retrying<T extends object>(policy: RetryPolicy, functions: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(functions)) {
    wrapped[name] = (...args: unknown[]) => withRetry(policy, () => (fn as (...input: unknown[]) => Promise<unknown>)(...args));
  }
  return wrapped as T;
}
