import 'server-only';
import { eq, lt, sql } from 'drizzle-orm';
import { localDate } from '@/lib/demo/slots';
import type { Db } from '../../platform/db';
import type { FunnelEvent, FunnelSink, FunnelSource } from '../../platform/funnel';
import { foldLongTail, knownValues, type SourceKey } from './fold';
import { funnelCounts, pendingDemos } from './schema';

/** A counted step of the funnel after the visits (the visits are in visitCounts). */
export type FunnelStep = 'enquiry' | 'demo_booked' | 'demo_held';

function keyOf(source: FunnelSource): SourceKey {
  return {
    referrerHost: source.referrerHost ?? '',
    utmSource: source.utmSource ?? '',
    utmMedium: source.utmMedium ?? '',
    utmCampaign: source.utmCampaign ?? '',
  };
}

/** Adds `count` to `step` on `day` for `source` (its long tail folded as the visits' is). */
async function addStep(
  db: Db,
  day: string,
  step: FunnelStep,
  source: SourceKey,
  count = 1,
): Promise<void> {
  const [folded] = foldLongTail([source], await knownValues(db, funnelCounts, day));
  await db
    .insert(funnelCounts)
    .values({ day, step, ...folded!, count })
    .onConflictDoUpdate({
      target: [
        funnelCounts.day,
        funnelCounts.step,
        funnelCounts.referrerHost,
        funnelCounts.utmSource,
        funnelCounts.utmMedium,
        funnelCounts.utmCampaign,
      ],
      set: { count: sql`${funnelCounts.count} + excluded.count` },
    });
}

/**
 * The funnel's sink (platform/funnel.ts), counting in the site's zone `timeZone`: an enquiry or
 * a booking adds to its day's step; a booking is also kept as pending until its start passes
 * (countHeldDemos), a cancellation removes it, a move changes its start.
 */
export function funnelCounter(timeZone: string): FunnelSink {
  return async (db: Db, event: FunnelEvent) => {
    const day = localDate(event.at.getTime(), timeZone);
    switch (event.step) {
      case 'enquiry':
        return addStep(db, day, 'enquiry', keyOf(event.source));
      case 'demo_booked':
        await addStep(db, day, 'demo_booked', keyOf(event.source));
        await db
          .insert(pendingDemos)
          .values({ bookingId: event.bookingId, startsAt: event.startsAt, ...keyOf(event.source) })
          .onConflictDoUpdate({
            target: pendingDemos.bookingId,
            set: { startsAt: event.startsAt },
          });
        return;
      case 'demo_cancelled':
        await db.delete(pendingDemos).where(eq(pendingDemos.bookingId, event.bookingId));
        return;
      case 'demo_moved':
        await db
          .update(pendingDemos)
          .set({ startsAt: event.startsAt })
          .where(eq(pendingDemos.bookingId, event.bookingId));
        return;
    }
  };
}

/**
 * Counts as `demo_held` (on the day of its start, in `timeZone`) each pending booked demo whose
 * start is before `now`, and forgets it: run by the daily purge and before each report, so the
 * figure is there whether or not the booking has been purged or erased since.
 * @returns how many demos were counted
 */
export async function countHeldDemos(db: Db, timeZone: string, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const started = await tx.delete(pendingDemos).where(lt(pendingDemos.startsAt, now)).returning();
    for (const demo of started)
      await addStep(
        tx as unknown as Db,
        localDate(demo.startsAt.getTime(), timeZone),
        'demo_held',
        {
          referrerHost: demo.referrerHost,
          utmSource: demo.utmSource,
          utmMedium: demo.utmMedium,
          utmCampaign: demo.utmCampaign,
        },
      );
    return started.length;
  });
}
