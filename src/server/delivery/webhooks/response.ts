import 'server-only';
import { JobFailure } from '../queue/failure';

/** Longest wait honoured from a `Retry-After` header (1 day, in ms). */
const MAX_RETRY_AFTER_MS = 86_400_000;

/**
 * The wait a `Retry-After` header asks for, in ms (0 when absent or unreadable, at most a day):
 * either delay-seconds or an HTTP date (RFC 9110 §10.2.3), measured from `nowMs`.
 */
export function retryAfterMs(header: string | null, nowMs: number): number {
  if (!header) return 0;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - nowMs;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : 0;
}

/**
 * Judges a non-2xx answer of a webhook endpoint: 408, 429 and 5xx are temporary (the
 * queue retries, no sooner than `Retry-After`); a redirect (never followed) and any other 4xx are
 * permanent: the job is marked failed until `leads retry`.
 */
export function responseFailure(
  status: number,
  retryAfter: string | null,
  nowMs: number,
): JobFailure {
  const temporary = status === 408 || status === 429 || status >= 500;
  const summary =
    status >= 300 && status < 400 ? `HTTP ${status} (redirect not followed)` : `HTTP ${status}`;
  return new JobFailure(summary, !temporary, temporary ? retryAfterMs(retryAfter, nowMs) : 0);
}
