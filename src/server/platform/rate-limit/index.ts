import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import { rateLimits } from './schema';

/**
 * Fixed-window counters in the database (table `rate_limits`), shared by every instance: the
 * enquiry limit per client, the quarantine's hourly cap and the booking limits use them.
 */

/** At most `max` events per key per `windowMs` (ms), e.g. 5 enquiries per client per 10 minutes. */
export type RateLimit = { max: number; windowMs: number };

/**
 * Counts one event for `key` in the current fixed window at `now` and says whether it is allowed.
 * Atomic (one upsert), so concurrent requests on several instances are counted exactly; run it in
 * the caller's transaction so a refused or failed request is not counted.
 * @returns true when the event is within `limit.max`.
 */
export async function consumeRateLimit(
  db: Db,
  key: string,
  limit: RateLimit,
  now: Date,
): Promise<boolean> {
  return (await countInWindow(db, key, limit, now)) <= limit.max;
}

/**
 * Adds one to `key`'s counter in the current fixed window of `limit.windowMs` (atomic upsert).
 * @returns the count including this one.
 */
export async function countInWindow(
  db: Db,
  key: string,
  limit: RateLimit,
  now: Date,
): Promise<number> {
  const windowStart = new Date(Math.floor(now.getTime() / limit.windowMs) * limit.windowMs);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    })
    .returning({ count: rateLimits.count });
  return row?.count ?? 1;
}
