/**
 * Limits on what a client may send. Plain constants: next.config.ts, the proxy and the
 * pages that explain a refusal read them, so the limit a visitor is told is the one enforced.
 */

/** Largest server-action body (the contact form's POST), in KB of 1,024 bytes. */
export const ACTION_BODY_LIMIT_KB = 64;

/** `ACTION_BODY_LIMIT_KB` in bytes. */
export const ACTION_BODY_LIMIT_BYTES = ACTION_BODY_LIMIT_KB * 1024;

/**
 * Longest request target (path and query, as sent, percent-escapes included) answered, in bytes;
 * a longer one gets 414. Node.js itself answers 431 once all request headers pass 16 KB.
 */
export const URL_LIMIT_BYTES = 8 * 1024;

/** Why a request is refused, and with which status: 400, 403, 404, 405, 413 or 414. */
export type Refusal = { status: 400 | 403 | 404 | 405 | 413 | 414; reason: string };

/** Where the pages explaining a refusal are prerendered (src/app/request-error); not public. */
export const REFUSAL_PAGES_PATH = '/request-error';

/** Whether `pathname` is under `REFUSAL_PAGES_PATH` (the proxy serves those pages at other URLs). */
export function isRefusalPagePath(pathname: string): boolean {
  return pathname === REFUSAL_PAGES_PATH || pathname.startsWith(`${REFUSAL_PAGES_PATH}/`);
}
