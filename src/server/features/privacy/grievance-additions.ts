import 'server-only';
import { and, asc, count, eq, gt, inArray } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../platform/db';
import { log } from '../../platform/log';
import { grievanceAdditions, type GrievanceAdditionSource } from './schema';

/** Additions an open grievance takes in any 24 hours; later ones that day are dropped (logged). */
export const ADDITIONS_PER_DAY = 5;
/** Additions an open grievance takes in all; later ones are dropped (logged). */
export const ADDITIONS_MAX = 50;

const DAY_MS = 24 * 3_600_000;

/** One addition to an open grievance, as the console shows it. */
export type GrievanceAddition = { at: Date; by: GrievanceAdditionSource; text: string };

/**
 * Stores `addition` as a row of the open grievance `requestId`, in the caller's transaction
 * (which holds the grievance's row lock), unless it already took ADDITIONS_PER_DAY in the 24
 * hours before `addition.at` or ADDITIONS_MAX in all: then it is dropped and logged
 * (`privacy.grievance_full`, with `reference`).
 * @returns whether it was stored.
 */
export async function addToGrievance(
  tx: Db,
  grievance: { id: string; reference: string },
  addition: { by: 'form' | 'link'; text: string; at: Date },
): Promise<boolean> {
  const counted = (since?: Date) =>
    tx
      .select({ n: count() })
      .from(grievanceAdditions)
      .where(
        and(
          eq(grievanceAdditions.requestId, grievance.id),
          since ? gt(grievanceAdditions.at, since) : undefined,
        ),
      );
  const [[today], [all]] = await Promise.all([
    counted(new Date(addition.at.getTime() - DAY_MS)),
    counted(),
  ]);
  if ((today?.n ?? 0) >= ADDITIONS_PER_DAY || (all?.n ?? 0) >= ADDITIONS_MAX) {
    log.warn({ event: 'privacy.grievance_full', reference: grievance.reference, by: addition.by });
    return false;
  }
  await tx
    .insert(grievanceAdditions)
    .values({ id: randomUUID(), requestId: grievance.id, ...addition });
  return true;
}

/** The additions of the grievance `requestId`, oldest first. */
export function additionsOf(db: Db, requestId: string): Promise<GrievanceAddition[]> {
  return db
    .select({ at: grievanceAdditions.at, by: grievanceAdditions.by, text: grievanceAdditions.text })
    .from(grievanceAdditions)
    .where(eq(grievanceAdditions.requestId, requestId))
    .orderBy(asc(grievanceAdditions.at));
}

/** Deletes the additions of the requests `requestIds` (they are closing), in the caller's transaction. */
export async function dropAdditionsOf(tx: Db, requestIds: readonly string[]): Promise<void> {
  if (requestIds.length > 0)
    await tx
      .delete(grievanceAdditions)
      .where(inArray(grievanceAdditions.requestId, [...requestIds]));
}
