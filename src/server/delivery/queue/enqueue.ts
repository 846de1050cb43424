import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../platform/db';
import { jobs } from './schema';
import type { JobKind } from './job';

/** How a job is queued besides its payload. */
export type EnqueueOptions = {
  /** At most one job per key, ever: enqueueing the same key again adds nothing. */
  dedupeKey: string;
  /** Not before this time (e.g. a reminder); default now. */
  notBefore?: Date;
  /** The record the job belongs to (e.g. an enquiry's id), to list or erase its jobs. */
  owner?: string;
};

/**
 * Queues one job of `kind` in `tx` (the caller's transaction, so the job is stored with the rows it
 * announces or not at all). The payload is validated with the kind's schema first.
 * @returns whether a job was added (false: one with the same `dedupeKey` exists).
 * @throws ZodError when the payload does not match the kind's schema (nothing is stored).
 */
export async function enqueue<Payload>(
  tx: Db,
  kind: JobKind<Payload>,
  payload: Payload,
  options: EnqueueOptions,
): Promise<boolean> {
  const valid = kind.payload.parse(payload);
  const due = options.notBefore ?? new Date();
  const added = await tx
    .insert(jobs)
    .values({
      id: randomUUID(),
      kind: kind.name,
      payload: valid as object,
      dedupeKey: options.dedupeKey,
      owner: options.owner ?? null,
      ...(options.notBefore ? { dueAt: due, runAt: due } : {}),
    })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id });
  return added.length > 0;
}
