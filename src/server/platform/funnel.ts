import 'server-only';
import type { Db } from './db';
import { errorFacts, log } from './log';

/** A step of the way from a visit to a demo, counted when it happens (the sources' funnel). */
export type FunnelEvent =
  /** An enquiry stored (not spam). */
  | { step: 'enquiry'; at: Date; source: FunnelSource }
  /** A demo booked; `bookingId` and `startsAt` let the demo be counted as held once it starts. */
  | { step: 'demo_booked'; at: Date; source: FunnelSource; bookingId: string; startsAt: Date }
  /** A booked demo cancelled (it will not be counted as held). */
  | { step: 'demo_cancelled'; at: Date; bookingId: string }
  /** A booked demo moved to another start. */
  | { step: 'demo_moved'; at: Date; bookingId: string; startsAt: Date };

/** The source of the enquiry a step belongs to (its referrer host and UTM tags, null: none). */
export type FunnelSource = {
  referrerHost: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
};

/** The four source fields of `row` (an enquiry, say) and nothing else. */
export function funnelSourceOf(row: FunnelSource): FunnelSource {
  const { referrerHost, utmSource, utmMedium, utmCampaign } = row;
  return { referrerHost, utmSource, utmMedium, utmCampaign };
}

/** Counts a funnel event inside the transaction `tx` that makes it happen. */
export type FunnelSink = (tx: Db, event: FunnelEvent) => Promise<void>;

const holder = globalThis as typeof globalThis & { __nirmayaFunnelSink?: FunnelSink };

/**
 * Sets where funnel events go (the wiring sets the sources' counter at start and in each
 * route's first call; tests set their own). `undefined` turns counting off.
 */
export function setFunnelSink(sink: FunnelSink | undefined): void {
  holder.__nirmayaFunnelSink = sink;
}

/**
 * Counts `event` through the sink the wiring set, in a savepoint of the caller's transaction `tx`
 * (so the step is counted exactly when it is stored, and rolled back with it); nothing when none
 * is set. A failing count is logged (`funnel.count_failed`) and never fails the caller: an
 * enquiry or a booking matters more than its count. Features that make a step happen (contact,
 * demos) call it without knowing who counts.
 */
export async function recordFunnelEvent(tx: Db, event: FunnelEvent): Promise<void> {
  const sink = holder.__nirmayaFunnelSink;
  if (!sink) return;
  try {
    await tx.transaction((savepoint) => sink(savepoint as unknown as Db, event));
  } catch (error) {
    log.error({ event: 'funnel.count_failed', step: event.step, error: errorFacts(error) });
  }
}
