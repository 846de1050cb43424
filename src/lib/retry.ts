/** Exponential backoff before attempt `attempts + 1`: `base * 2^(attempts - 1)`, capped at `max` (ms). */
export function retryDelay(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), maxMs);
}

export type RetryOptions = {
  /** Delay after the first failure (ms); doubles after each further one. */
  baseMs: number;
  /** Longest delay between attempts (ms). */
  maxMs: number;
  /** Stops retrying (the pending wait ends at once and the result is undefined). */
  signal?: AbortSignal;
  /** Called after each failure with the error, the attempt number (1-based) and the delay before the next (ms). */
  onFailure?(error: unknown, attempt: number, delayMs: number): void;
};

/**
 * Runs `task` until it resolves, waiting `retryDelay(attempt)` between failures (capped backoff).
 * Resolves with the task's result, or undefined once `signal` aborts. Never rejects.
 */
export async function retryWithBackoff<T>(
  task: () => Promise<T>,
  options: RetryOptions,
): Promise<T | undefined> {
  for (let attempt = 1; !options.signal?.aborted; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (options.signal?.aborted) return undefined;
      const delayMs = retryDelay(attempt, options.baseMs, options.maxMs);
      options.onFailure?.(error, attempt, delayMs);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, delayMs);
        function done() {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', done);
          resolve();
        }
        options.signal?.addEventListener('abort', done, { once: true });
      });
    }
  }
  return undefined;
}
