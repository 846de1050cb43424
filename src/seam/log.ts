/**
 * The seam's log lines, in the shape of the site's logger (pino's JSON on stdout, as
 * src/server/platform/log.ts writes them), so one alarm or search reads both. The seam runs outside
 * Next.js's bundle, before the site's logger is loaded. Facts only, never personal data.
 */
const LEVELS = { info: 30, warn: 40, error: 50 } as const;

/** Writes one line at `level` with `fields` (an `event` name first) and a message. */
export function seamLog(
  level: keyof typeof LEVELS,
  fields: { event: string } & Record<string, unknown>,
  msg?: string,
): void {
  process.stdout.write(
    JSON.stringify({
      level: LEVELS[level],
      time: new Date().toISOString(),
      service: 'nirmaya-site',
      ...fields,
      ...(msg ? { msg } : {}),
    }) + '\n',
  );
}

/**
 * A logger of one event that writes at most one line per `intervalMs` (ms), with the number of
 * occurrences since the last line: a client who can cause the event at will cannot flood the log.
 * @param now the clock (ms), injected for tests
 */
export function throttledLog(
  level: keyof typeof LEVELS,
  event: string,
  msg: string,
  intervalMs = 60_000,
  now: () => number = Date.now,
): () => void {
  let last = -Infinity;
  let count = 0;
  return () => {
    count += 1;
    if (now() - last < intervalMs) return;
    last = now();
    seamLog(level, { event, count }, msg);
    count = 0;
  };
}
