import 'server-only';

/**
 * Whether `error` (or one of its causes: Drizzle wraps the driver's error) is PostgreSQL's
 * `unique_violation` (SQLSTATE 23505), as both pg and PGlite report it.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as Error & { code?: unknown }).code === '23505') return true;
  }
  return false;
}
