import 'server-only';
import { lt } from 'drizzle-orm';
import { localDate } from '@/lib/demo/slots';
import type { Db } from '../../platform/db';
import { countHeldDemos } from './funnel';
import { forgetPastDays } from './salt';
import { funnelCounts, visitCounts } from './schema';

/**
 * The sources' part of the daily purge at `now`: counts the demos held since the last run,
 * deletes the salts and visitor hashes of past days (in `timeZone`) and the counts older than
 * `retentionMonths` (SOURCES_RETENTION_MONTHS, 25 by default).
 * @returns how many daily count rows were deleted
 */
export async function purgeSources(
  db: Db,
  options: { timeZone: string; retentionMonths: number },
  now: Date = new Date(),
): Promise<number> {
  await countHeldDemos(db, options.timeZone, now);
  await forgetPastDays(db, localDate(now.getTime(), options.timeZone));
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - options.retentionMonths);
  const oldest = localDate(cutoff.getTime(), options.timeZone);
  const visits = await db
    .delete(visitCounts)
    .where(lt(visitCounts.day, oldest))
    .returning({ day: visitCounts.day });
  const steps = await db
    .delete(funnelCounts)
    .where(lt(funnelCounts.day, oldest))
    .returning({ day: funnelCounts.day });
  return visits.length + steps.length;
}
