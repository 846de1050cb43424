import 'server-only';
import { errorFacts } from '../../platform/log';

/**
 * A failed job as its handler judged it: `summary` for the job's `last_error` (an error class,
 * code or status, never personal data), whether retrying is pointless (`permanent`), and the least
 * wait before the next attempt in ms (`retryAfterMs`, e.g. from an HTTP `Retry-After`).
 */
export class JobFailure extends Error {
  constructor(
    readonly summary: string,
    readonly permanent: boolean,
    readonly retryAfterMs = 0,
    options?: ErrorOptions,
  ) {
    super(summary, options);
    this.name = 'JobFailure';
  }
}

/**
 * Wraps any error as a JobFailure (a JobFailure is returned as is), summarised by its class,
 * `code` and SMTP `responseCode` (e.g. `Error EENVELOPE 550`); temporary unless `permanent`.
 */
export function asJobFailure(error: unknown, permanent = false): JobFailure {
  if (error instanceof JobFailure) return error;
  const facts = errorFacts(error);
  const summary = `${facts.type}${facts.code ? ` ${facts.code}` : ''}${facts.responseCode ? ` ${facts.responseCode}` : ''}`;
  return new JobFailure(summary, permanent, 0, { cause: error });
}
