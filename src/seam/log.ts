// The seam's log lines, in the shape of the site's logger (pino's JSON on stdout, as
// src/server/platform/log.ts writes them), so one alarm or search reads both. The seam runs outside
// Next.js's bundle, before the site's logger is loaded. Facts only, never personal data.
import { createThrottle } from '../lib/throttle';

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
 * occurrences since the last line (createThrottle).
 */
export function throttledLog(
  level: keyof typeof LEVELS,
  event: string,
  msg: string,
  intervalMs = 60_000,
): () => void {
  const throttle = createThrottle(intervalMs);
  return () => {
    const count = throttle();
    if (count !== null) seamLog(level, { event, count }, msg);
  };
}
