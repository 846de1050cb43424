import 'server-only';
import type { Env } from '../env';
import type { Database } from '../db';
import { siteUrl } from '@/lib/seo/site-url';
import { getSiteSecret } from '../security/site-secret';
import { createDemoMailSender } from '../demo/mail-jobs';
import { issueManageToken, managePageUrl } from '../demo/manage-token';
import { createEmailSender } from '../email/job-sender';
import { createSmtpSender } from '../email/transport';
import { log } from '../log';
import { createWebhookSender } from '../webhooks/sender';
import type { ChannelSenders } from './delivery';
import { createOutboxWorker, type OutboxWorker } from './worker';

const holder = globalThis as typeof globalThis & { __nirmayaOutboxWorker?: OutboxWorker | null };

/**
 * Starts this process's outbox worker once (kept on `globalThis` across module reloads), with a
 * sender for each configured channel: e-mail with `SMTP_URL`, webhooks with `WEBHOOK_URLS` and
 * `WEBHOOK_SECRET` (issue 12), demo invitations, reminders and cancellations with `SMTP_URL` and `DEMO_HOSTS` (issue 16; the
 * visitor's carry the manage link on `SITE_URL`). Jobs of an unconfigured channel pile up as pending, delivered once it
 * is configured and the site restarted; this is logged once, here. With neither, no worker runs.
 */
export function startOutboxWorker(database: Database, env: Env): void {
  if (holder.__nirmayaOutboxWorker !== undefined) return;
  const senders: ChannelSenders = {};
  if (env.SMTP_URL && env.LEADS_TO) {
    const send = createSmtpSender(env.SMTP_URL);
    senders.email = createEmailSender(send, { from: env.LEADS_FROM, to: env.LEADS_TO });
    if (env.DEMO_HOSTS.length > 0) {
      senders.demo = createDemoMailSender(
        send,
        { from: env.LEADS_FROM, copyTo: env.LEADS_TO, timeZone: env.DEMO_TIMEZONE },
        env.DEMO_HOSTS,
        async (bookingId) =>
          managePageUrl(
            siteUrl(env.SITE_URL),
            issueManageToken(bookingId, await getSiteSecret(database.db, env.FORM_SECRET)),
          ),
      );
    }
  } else {
    log.warn(
      { event: 'email.disabled' },
      'SMTP_URL is not set: enquiries are stored but not e-mailed',
    );
  }
  if (env.WEBHOOK_SECRET && env.WEBHOOK_URLS.length > 0) {
    senders.webhook = createWebhookSender(env.WEBHOOK_SECRET);
    log.info({ event: 'webhooks.enabled', endpoints: env.WEBHOOK_URLS.length });
  }
  if (Object.keys(senders).length === 0) {
    holder.__nirmayaOutboxWorker = null;
    return;
  }
  const worker = createOutboxWorker(database.db, senders, {
    leaseMs: env.OUTBOX_LEASE_SECONDS * 1_000,
  });
  holder.__nirmayaOutboxWorker = worker;
  worker.start();
  log.info({ event: 'outbox.started', channels: Object.keys(senders) }, 'Outbox worker started');
}

/** Wakes the worker after an enquiry is stored (no-op when no channel is configured or not started). */
export function nudgeOutboxWorker(): void {
  holder.__nirmayaOutboxWorker?.nudge();
}

/**
 * Stops this process's outbox worker for good (graceful shutdown): no more claims, the send in
 * progress finishes, the other claimed jobs go back to the queue. No-op when none runs.
 */
export async function stopOutboxWorker(): Promise<void> {
  const worker = holder.__nirmayaOutboxWorker;
  holder.__nirmayaOutboxWorker = null;
  await worker?.stop();
}
