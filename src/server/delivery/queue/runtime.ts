import 'server-only';
import type { Db } from '../../platform/db';
import { log } from '../../platform/log';
import type { Registration } from './job';
import { createWorker, type QueueWorker, type WorkerOptions } from './worker';

const holder = globalThis as typeof globalThis & { __nirmayaQueueWorker?: QueueWorker | null };

/**
 * Starts this process's queue worker once (kept on `globalThis` across module reloads) with the
 * handlers in `registrations` (src/server/wiring/jobs.ts decides which, from the configuration). Jobs of
 * a kind without a handler wait as pending (and ring the alarm once due) until one is registered.
 * With no registration, no worker runs.
 */
export function startQueueWorker(
  db: Db,
  registrations: readonly Registration[],
  options: WorkerOptions,
): void {
  if (holder.__nirmayaQueueWorker !== undefined) return;
  if (registrations.length === 0) {
    holder.__nirmayaQueueWorker = null;
    return;
  }
  const worker = createWorker(db, registrations, options);
  holder.__nirmayaQueueWorker = worker;
  worker.start();
  log.info(
    { event: 'queue.started', kinds: registrations.map((registration) => registration.kind.name) },
    'Queue worker started',
  );
}

/** Wakes the worker after jobs were enqueued (no-op when none runs). */
export function nudgeQueueWorker(): void {
  holder.__nirmayaQueueWorker?.nudge();
}

/**
 * Stops this process's worker for good (graceful shutdown): no more claims, the jobs in progress
 * finish. No-op when none runs.
 */
export async function stopQueueWorker(): Promise<void> {
  const worker = holder.__nirmayaQueueWorker;
  holder.__nirmayaQueueWorker = null;
  await worker?.stop();
}
