/**
 * A throttle for a repeated event's log line: call it on each occurrence; it answers with the
 * number of occurrences since the last line when one may be written now (at most one per
 * `intervalMs`, ms), else null. So a client who can cause the event at will cannot flood the log,
 * and no occurrence goes uncounted.
 * @param now the clock (ms), injected for tests
 */
export function createThrottle(
  intervalMs: number,
  now: () => number = Date.now,
): () => number | null {
  let last = -Infinity;
  let count = 0;
  return () => {
    count += 1;
    if (now() - last < intervalMs) return null;
    last = now();
    const occurrences = count;
    count = 0;
    return occurrences;
  };
}
