import { describe, expect, it } from 'vitest';
import { retryDelay, retryWithBackoff } from './retry';

describe('retryDelay', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => retryDelay(attempt, 1_000, 30_000))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(retryDelay(0, 30_000, 3_600_000)).toBe(30_000);
  });
});

describe('retryWithBackoff', () => {
  it('retries a failing task with the backoff schedule until it succeeds', async () => {
    const failures: Array<[number, number]> = [];
    let calls = 0;
    const started = Date.now();
    const result = await retryWithBackoff(
      async () => {
        calls += 1;
        if (calls < 5) throw new Error('down');
        return 'up';
      },
      {
        baseMs: 10,
        maxMs: 40,
        onFailure: (_error, attempt, delayMs) => failures.push([attempt, delayMs]),
      },
    );
    const elapsed = Date.now() - started;
    console.log(`retryWithBackoff: 4 failures, then success after ${elapsed} ms`);
    expect(result).toBe('up');
    expect(failures).toEqual([
      [1, 10],
      [2, 20],
      [3, 40],
      [4, 40],
    ]);
    expect(elapsed).toBeGreaterThanOrEqual(100);
  });

  it('gives up at once when aborted during a wait', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = retryWithBackoff(() => Promise.reject(new Error('down')), {
      baseMs: 60_000,
      maxMs: 60_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
