import 'server-only';
import { inArray, sql } from 'drizzle-orm';
import type { ChannelBacklog } from '@/lib/delivery-alarm';
import type { Db } from '../../platform/db';
import { jobs } from './schema';

/**
 * The queue's backlog per kind, for the alarm, `/api/health` and the metrics: kinds with nothing
 * waiting or failed are left out. Reads only unfinished and failed jobs (an index scan).
 * @throws when the database does not answer.
 */
export async function readBacklog(db: Db): Promise<Record<string, ChannelBacklog>> {
  const open = sql`${jobs.status} in ('pending', 'sending')`;
  const isDue = sql`${open} and ${jobs.dueAt} <= now()`;
  const rows = await db
    .select({
      kind: jobs.kind,
      due: sql<number>`count(*) filter (where ${isDue})::int`,
      oldest: sql<
        string | null
      >`floor(extract(epoch from now() - min(${jobs.dueAt}) filter (where ${isDue})))`,
      scheduled: sql<number>`count(*) filter (where ${open} and ${jobs.dueAt} > now())::int`,
      failed: sql<number>`count(*) filter (where ${jobs.status} = 'failed' and ${jobs.acknowledgedAt} is null)::int`,
      acknowledged: sql<number>`count(*) filter (where ${jobs.status} = 'failed' and ${jobs.acknowledgedAt} is not null)::int`,
    })
    .from(jobs)
    .where(inArray(jobs.status, ['pending', 'sending', 'failed']))
    .groupBy(jobs.kind)
    .orderBy(jobs.kind);
  return Object.fromEntries(
    rows.map((row) => [
      row.kind,
      {
        due: Number(row.due),
        oldestDueSeconds: Math.max(0, Number(row.oldest ?? 0)),
        scheduled: Number(row.scheduled),
        failed: Number(row.failed),
        acknowledged: Number(row.acknowledged),
      },
    ]),
  );
}
