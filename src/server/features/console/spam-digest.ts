import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { consoleText } from '@/content/console';
import type { Db } from '../../platform/db';
import { operators } from './schema';
import type { SendMail } from '../../delivery/email/transport';
import { enqueue } from '../../delivery/queue/enqueue';
import { defineJob, type JobHandler } from '../../delivery/queue/job';
import { unreviewedSpamCount } from './views';

/** The daily e-mail to admins when spam waits for review (`day`: the UTC date it is for). */
export const spamDigestJob = defineJob('console.spam-digest', z.object({ day: z.iso.date() }));

/**
 * Queues the next daily digest, due at `hour` UTC today (or tomorrow once that hour has passed
 * at `now`). One job per day however many instances ask (its deduplication key is the day), so
 * calling this every hour on every instance sends one digest a day.
 * @returns whether a job was added.
 */
export async function scheduleSpamDigest(db: Db, hour: number, now = new Date()): Promise<boolean> {
  const due = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour));
  if (due.getTime() <= now.getTime()) due.setUTCDate(due.getUTCDate() + 1);
  const day = due.toISOString().slice(0, 10);
  return enqueue(
    db,
    spamDigestJob,
    { day },
    { dedupeKey: `console.spam-digest:${day}`, notBefore: due },
  );
}

/**
 * Sends the digest to every admin operator when unreleased spam waits (nothing, `skipped`, when
 * none does or there is no admin): how many, and the link to the Spam page. It names no
 * enquiry and no visitor.
 */
export function sendSpamDigest(
  db: Db,
  send: SendMail,
  { from, spamPageUrl }: { from: string; spamPageUrl: string },
): JobHandler<z.infer<typeof spamDigestJob.payload>> {
  return async () => {
    const count = await unreviewedSpamCount(db);
    if (count === 0) return { skipped: 'no spam to review' };
    const admins = await db
      .select({ email: operators.email })
      .from(operators)
      .where(eq(operators.role, 'admin'));
    if (admins.length === 0) return { skipped: 'no admin' };
    await send(
      {
        from,
        to: admins.map((admin) => admin.email),
        subject: consoleText.digest.subject(count),
        text: consoleText.digest.text(count, spamPageUrl),
      },
      { audience: 'staff' },
    );
  };
}
