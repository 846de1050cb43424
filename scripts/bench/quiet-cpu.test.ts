import { describe, expect, it } from 'vitest';
import { idleShare, waitForQuietCpu } from './quiet-cpu.mjs';

/** A sampler that returns the given idle shares in turn, then the last one forever. */
const samples = (...shares: number[]) => async () => (shares.length > 1 ? shares.shift()! : shares[0]!);

describe('waitForQuietCpu', () => {
  it('returns at the first sample at or above the threshold', async () => {
    expect(await waitForQuietCpu({ threshold: 0.9, sample: samples(0.4, 0.7, 0.95, 0.2) })).toEqual({
      idle: 0.95,
      quiet: true,
      samples: 3,
    });
  });

  it('gives up after the timeout and says the machine was busy', async () => {
    const result = await waitForQuietCpu({ threshold: 0.9, timeoutMs: 0, sample: samples(0.3) });
    expect(result).toEqual({ idle: 0.3, quiet: false, samples: 1 });
  });
});

describe('idleShare', () => {
  it('is a share between 0 and 1, lower while this process spins', async () => {
    const spinning = idleShare(300);
    const end = Date.now() + 250;
    while (Date.now() < end); // keeps one CPU busy for most of the sample
    const share = await spinning;
    expect(share).toBeGreaterThanOrEqual(0);
    expect(share).toBeLessThan(1);
  });
});
