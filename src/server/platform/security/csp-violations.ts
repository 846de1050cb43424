import 'server-only';
import type { CspViolation } from '@/lib/security/csp-report';
import { log } from '../log';

/** What a violation log writes: one entry per violation, or a count of those it left out. */
export type ViolationEntry =
  | ({ event: 'csp_violation' } & CspViolation)
  | { event: 'csp_violations_suppressed'; count: number };

/**
 * A log of CSP violations that writes at most `maxPerWindow` entries per fixed window of
 * `windowMs` (ms), so a flood of reports (a browser extension, a hostile client) cannot flood the
 * logs. When a window ends with violations left out, the next call first writes their count.
 * @returns a function taking the violations of one report and the time (ms since the epoch)
 */
export function createViolationLog({
  maxPerWindow,
  windowMs,
  write,
}: {
  maxPerWindow: number;
  windowMs: number;
  write: (entry: ViolationEntry) => void;
}): (violations: readonly CspViolation[], now?: number) => void {
  let windowStart = Number.NEGATIVE_INFINITY;
  let written = 0;
  let suppressed = 0;
  return (violations, now = Date.now()) => {
    if (now - windowStart >= windowMs) {
      if (suppressed > 0) write({ event: 'csp_violations_suppressed', count: suppressed });
      windowStart = now;
      written = 0;
      suppressed = 0;
    }
    for (const violation of violations) {
      if (written < maxPerWindow) {
        write({ event: 'csp_violation', ...violation });
        written += 1;
      } else {
        suppressed += 1;
      }
    }
  };
}

/** This server's CSP violation log: warnings, at most 60 a minute. */
export const logCspViolations = createViolationLog({
  maxPerWindow: 60,
  windowMs: 60_000,
  write: (entry) => log.warn(entry, 'Content-Security-Policy violation'),
});
