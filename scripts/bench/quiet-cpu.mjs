// Benchmark hygiene: Lighthouse's TBT and LCP come from main-thread task times, which stretch
// when other processes (a build that just ended, the previous run's Chromium) hold the CPUs.
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

function cpuTimes() {
  let idle = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

/**
 * Share of all CPUs' time (0-1) spent idle over the next `sampleMs` (ms).
 * @param {number} sampleMs
 * @returns {Promise<number>}
 */
export async function idleShare(sampleMs) {
  const before = cpuTimes();
  await sleep(sampleMs);
  const after = cpuTimes();
  const total = after.total - before.total;
  return total > 0 ? (after.idle - before.idle) / total : 1;
}

/**
 * Samples the CPUs until they are at least `threshold` idle over one sample, or `timeoutMs` (ms)
 * has passed. It never fails: a busy machine is reported, not hidden.
 * @param {{ threshold?: number, timeoutMs?: number, sample?: () => Promise<number> }} [options]
 *   `sample` measures one idle share (default: {@link idleShare} over 1 s)
 * @returns {Promise<{ idle: number, quiet: boolean, samples: number }>} the last idle share,
 *   whether it reached the threshold, and how many samples it took
 */
export async function waitForQuietCpu({
  threshold = 0.9,
  timeoutMs = 30_000,
  sample = () => idleShare(1_000),
} = {}) {
  const deadline = Date.now() + timeoutMs;
  let samples = 0;
  for (;;) {
    const idle = await sample();
    samples += 1;
    if (idle >= threshold) return { idle, quiet: true, samples };
    if (Date.now() >= deadline) return { idle, quiet: false, samples };
  }
}
