import type { Database } from '@/server/platform/db/client';
import { createWorker } from '@/server/delivery/queue/worker';
import { getSiteEnv } from '@/server/wiring/env';
import { jobHandlers } from '@/server/wiring/jobs';
import { meera } from './demo-settings';
import { LEADS_FROM, LEADS_TO, TEST_SECRET } from './enquiry';
import type { TestSmtpServer } from './smtp';

/**
 * A queue worker running the site's own job registrations (wiring/jobs.ts: every e-mail through
 * the suppression gate) on `database`, e-mailing through the test server `smtp`, with `meera` as
 * the demo host and the test secret as `FORM_SECRET`; `more` adds variables (e.g. `WEBHOOK_URLS`).
 */
export function siteWorker(
  database: Database,
  smtp: TestSmtpServer,
  more: Record<string, string> = {},
) {
  const env = getSiteEnv({
    SMTP_URL: smtp.url,
    LEADS_TO,
    LEADS_FROM,
    FORM_SECRET: TEST_SECRET,
    SITE_URL: 'http://localhost:3000',
    DEMO_HOSTS: JSON.stringify([meera]),
    ...more,
  } as unknown as NodeJS.ProcessEnv);
  return createWorker(database.db, jobHandlers(database, env), { pollMs: 50 });
}

/** The messages `smtp` received for `address` (envelope recipient, compared without case). */
export function mailsTo(smtp: TestSmtpServer, address: string) {
  return smtp.received.filter((mail) =>
    mail.envelope.to.some((to) => to.toLowerCase() === address.toLowerCase()),
  );
}

/**
 * Drains `worker` until a round handles no job: a job that queues another (a `privacy.ask`
 * queueing its `privacy.link`) wakes the site's own worker (nudgeQueueWorker), not this one.
 * Returns how many jobs were handled in all.
 */
export async function settle(worker: { drain(): Promise<number> }): Promise<number> {
  let handled = 0;
  for (let round = await worker.drain(); round > 0; round = await worker.drain()) handled += round;
  return handled;
}

/**
 * Runs a {@link siteWorker} on `database` until idle ({@link settle}), then stops it; `more` adds
 * variables (e.g. the mail budget).
 */
export async function drainSite(
  database: Database,
  smtp: TestSmtpServer,
  more: Record<string, string> = {},
): Promise<void> {
  const worker = siteWorker(database, smtp, more);
  await settle(worker);
  await worker.stop();
}
