import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retryDelay, retryWithBackoff } from './retry';

describe('retryDelay', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => retryDelay(attempt, 1_000, 30_000))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(retryDelay(0, 30_000, 3_600_000)).toBe(30_000);
  });
});

// The waits run on vitest's fake clock: the schedule is checked to the millisecond, and no test
// waits for real time to pass.
describe('retryWithBackoff', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries a failing task with the backoff schedule until it succeeds', async () => {
    const failures: Array<[number, number]> = [];
    const calls: number[] = [];
    const started = Date.now();
    const pending = retryWithBackoff(
      async () => {
        calls.push(Date.now() - started);
        if (calls.length < 5) throw new Error('down');
        return 'up';
      },
      {
        baseMs: 10,
        maxMs: 40,
        onFailure: (_error, attempt, delayMs) => failures.push([attempt, delayMs]),
      },
    );
    await vi.runAllTimersAsync();
    expect(await pending).toBe('up');
    expect(failures).toEqual([
      [1, 10],
      [2, 20],
      [3, 40],
      [4, 40],
    ]);
    // Each attempt starts once the delay after the previous failure has passed, and not before.
    expect(calls).toEqual([0, 10, 30, 70, 110]);
  });

  it('gives up at once when aborted during a wait', async () => {
    const controller = new AbortController();
    let settled = false;
    const pending = retryWithBackoff(() => Promise.reject(new Error('down')), {
      baseMs: 60_000,
      maxMs: 60_000,
      signal: controller.signal,
    });
    void pending.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(20);
    expect(settled).toBe(false);
    controller.abort();
    // No time passes: the abort alone ends the 60 s wait.
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
    expect(await pending).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });
});
