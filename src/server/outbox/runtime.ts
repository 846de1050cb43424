import 'server-only';
import type { Env } from '../env';
import type { Database } from '../db';
import { createSmtpSender } from '../email/transport';
import { log } from '../log';
import { createOutboxWorker, type OutboxWorker } from './worker';

const holder = globalThis as typeof globalThis & { __nirmayaOutboxWorker?: OutboxWorker | null };

/**
 * Starts this process's outbox worker once (kept on `globalThis` across module reloads). Without
 * `SMTP_URL` no worker runs: enquiries pile up as pending jobs, delivered once SMTP is configured
 * and the site restarted; this is logged once, here.
 */
export function startOutboxWorker(database: Database, env: Env): void {
  if (holder.__nirmayaOutboxWorker !== undefined) return;
  if (!env.SMTP_URL || !env.LEADS_TO) {
    holder.__nirmayaOutboxWorker = null;
    log.warn(
      { event: 'email.disabled' },
      'SMTP_URL is not set: enquiries are stored but not e-mailed',
    );
    return;
  }
  const worker = createOutboxWorker(database.db, createSmtpSender(env.SMTP_URL), {
    from: env.LEADS_FROM,
    to: env.LEADS_TO,
  });
  holder.__nirmayaOutboxWorker = worker;
  worker.start();
  log.info({ event: 'email.enabled' }, 'Outbox worker started');
}

/** Wakes the worker after an enquiry is stored (no-op when e-mail is off or not started). */
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
