import 'server-only';
import { and, eq, inArray, like, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { jobs } from '../../delivery/queue/schema';
import { log } from '../../platform/log';
import { addressOfLink } from './link-token';
import { privacyLinkJob } from './link-job';
import { privacyAskJob } from './ask-job';
import { privacyReplyJob } from './reply';
import { privacyRequests } from './schema';

/**
 * The privacy requests' e-mails that never left: a `privacy.link` job's token encodes the
 * address and the person's words, a `privacy.reply` job holds the address and the admin's answer.
 * Failed or waiting ones are not kept for ever: they go after PRIVACY_JOB_DAYS, and at once when
 * their address is erased. A reply that goes unsent never leaves its request looking answered.
 */

/** How long a failed or waiting `privacy.*` job is kept, in days (from when it was queued). */
export const PRIVACY_JOB_DAYS = 30;

/** The outcome of a request whose reply was dropped unsent because its address was erased. */
export const REPLY_ERASED_OUTCOME = 'not answered: the address was erased before the reply left';

/** Shown on a request reopened because its reply could not be sent in PRIVACY_JOB_DAYS. */
export const REPLY_UNSENT_OUTCOME = `reply not delivered in ${PRIVACY_JOB_DAYS} days: answer again`;

const DAY_MS = 86_400_000;
const unsent = inArray(jobs.status, ['pending', 'failed']);

/**
 * The daily purge's part: deletes the failed or waiting (`pending`) jobs of every `privacy.*`
 * kind queued more than PRIVACY_JOB_DAYS before `now`, in one transaction; each request whose
 * reply goes with them is reopened (status `open`, the address back from the reply's job, outcome
 * REPLY_UNSENT_OUTCOME) so the console and the due-date alarm show it still needs an answer.
 * @returns how many jobs were deleted.
 */
export async function purgeStalePrivacyJobs(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - PRIVACY_JOB_DAYS * DAY_MS);
  const stale = and(like(jobs.kind, 'privacy.%'), unsent, lt(jobs.createdAt, cutoff));
  const deleted = await db.transaction(async (tx) => {
    const replies = await tx
      .select({ owner: jobs.owner, payload: jobs.payload })
      .from(jobs)
      .where(and(stale, eq(jobs.kind, privacyReplyJob.name)));
    for (const reply of replies) {
      const parsed = privacyReplyJob.payload.safeParse(reply.payload);
      if (!reply.owner || !parsed.success) continue;
      await tx
        .update(privacyRequests)
        .set({
          status: 'open',
          closedAt: null,
          email: parsed.data.to,
          outcome: REPLY_UNSENT_OUTCOME,
        })
        .where(and(eq(privacyRequests.id, reply.owner), eq(privacyRequests.status, 'closed')));
    }
    return tx.delete(jobs).where(stale).returning({ kind: jobs.kind });
  });
  if (deleted.length > 0)
    log.info({ event: 'privacy.jobs_purged', count: deleted.length, days: PRIVACY_JOB_DAYS });
  return deleted.length;
}

/**
 * The erasure's part, in its transaction: deletes every `privacy.ask`, `privacy.link` and `privacy.reply` job
 * whose payload holds `email` (any case), whatever its state; a request whose reply had not been
 * sent is marked REPLY_ERASED_OUTCOME instead of `answered`.
 * @returns how many jobs were deleted.
 */
export async function dropPrivacyJobsOf(tx: Db, email: string): Promise<number> {
  const address = email.trim().toLowerCase();
  const replies = await tx
    .select({ id: jobs.id, owner: jobs.owner, status: jobs.status })
    .from(jobs)
    .where(
      and(eq(jobs.kind, privacyReplyJob.name), sql`lower(${jobs.payload}->>'to') = ${address}`),
    );
  const links = (
    await tx
      .select({ id: jobs.id, payload: jobs.payload })
      .from(jobs)
      .where(inArray(jobs.kind, [privacyLinkJob.name, privacyAskJob.name]))
  ).filter((job) => {
    const parsed = privacyLinkJob.payload.safeParse(job.payload);
    return parsed.success && addressOfLink(parsed.data.token)?.toLowerCase() === address;
  });
  const owners = replies
    .filter((reply) => reply.status !== 'sent' && reply.owner)
    .map((reply) => reply.owner!);
  if (owners.length > 0)
    await tx
      .update(privacyRequests)
      .set({ outcome: REPLY_ERASED_OUTCOME })
      .where(and(inArray(privacyRequests.id, owners), eq(privacyRequests.status, 'closed')));
  const ids = [...replies, ...links].map((job) => job.id);
  if (ids.length > 0) await tx.delete(jobs).where(inArray(jobs.id, ids));
  return ids.length;
}
