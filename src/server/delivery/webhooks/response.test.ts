import { describe, expect, it } from 'vitest';
import { responseFailure, retryAfterMs } from './response';

const now = Date.parse('2026-11-23T10:00:00Z');

describe('retryAfterMs', () => {
  it.each([
    ['120', 120_000],
    [' 3 ', 3_000],
    ['Mon, 23 Nov 2026 10:00:30 GMT', 30_000],
    ['Mon, 23 Nov 2026 09:00:00 GMT', 0],
    ['9999999', 86_400_000],
    ['soon', 0],
    [null, 0],
  ])('reads %j as %d ms', (header, ms) => {
    expect(retryAfterMs(header, now)).toBe(ms);
  });
});

describe('responseFailure', () => {
  it.each([
    [408, false],
    [429, false],
    [500, false],
    [503, false],
    [400, true],
    [401, true],
    [404, true],
    [410, true],
    [301, true],
    [307, true],
  ])('judges HTTP %d permanent: %s', (status, permanent) => {
    expect(responseFailure(status, null, now).permanent).toBe(permanent);
  });

  it('honours Retry-After only on a temporary failure', () => {
    expect(responseFailure(429, '7', now)).toMatchObject({
      summary: 'HTTP 429',
      retryAfterMs: 7_000,
    });
    expect(responseFailure(503, '7', now).retryAfterMs).toBe(7_000);
    expect(responseFailure(410, '7', now)).toMatchObject({ summary: 'HTTP 410', retryAfterMs: 0 });
    expect(responseFailure(302, null, now).summary).toBe('HTTP 302 (redirect not followed)');
  });
});
