import 'server-only';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { DeliverySummary } from '@/lib/delivery-alarm';

type Metrics = {
  registry: Registry;
  enquiries: Counter<'outcome' | 'reason'>;
  notifications: Counter<'outcome'>;
  delivery: Gauge<'state'>;
  oldestPending: Gauge;
};

/** One registry per process, on `globalThis` (route bundles and the worker share it). */
const holder = globalThis as typeof globalThis & { __nirmayaMetrics?: Metrics };

function metrics(): Metrics {
  holder.__nirmayaMetrics ??= (() => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'nirmaya_' });
    return {
      registry,
      enquiries: new Counter({
        name: 'nirmaya_enquiries_total',
        help: 'Contact form submissions by outcome (e.g. accepted, quarantined, rejected) and reason',
        labelNames: ['outcome', 'reason'],
        registers: [registry],
      }),
      notifications: new Counter({
        name: 'nirmaya_notifications_total',
        help: 'Notification deliveries by outcome: sent, retried (temporary failure), failed (given up)',
        labelNames: ['outcome'],
        registers: [registry],
      }),
      delivery: new Gauge({
        name: 'nirmaya_delivery_jobs',
        help: 'Outbox jobs by state (pending: backlog not delivered yet; failed), and quarantined enquiries',
        labelNames: ['state'],
        registers: [registry],
      }),
      oldestPending: new Gauge({
        name: 'nirmaya_delivery_oldest_pending_seconds',
        help: 'Age of the oldest notification not delivered yet (s), 0 when none',
        registers: [registry],
      }),
    };
  })();
  return holder.__nirmayaMetrics;
}

/**
 * Counts one contact form submission (issue 10, item 7), called by the submit path.
 * @param outcome e.g. `accepted`, `quarantined`, `rejected`, `unavailable`
 * @param reason why, when there is one (e.g. `honeypot`, `rate-limited`); '' otherwise
 */
export function countEnquiry(outcome: string, reason = ''): void {
  metrics().enquiries.inc({ outcome, reason });
}

/** Counts one notification delivery attempt's outcome (the outbox worker). */
export function countNotification(outcome: 'sent' | 'retried' | 'failed'): void {
  metrics().notifications.inc({ outcome });
}

/**
 * The Prometheus text exposition of every metric, with the delivery gauges set from `summary`
 * (omitted when the database did not answer). Returns the body and its content type.
 */
export async function renderMetrics(
  summary: DeliverySummary | undefined,
): Promise<{ body: string; contentType: string }> {
  const { registry, delivery, oldestPending } = metrics();
  if (summary) {
    delivery.set({ state: 'pending' }, summary.pending);
    delivery.set({ state: 'failed' }, summary.failed);
    delivery.set({ state: 'quarantined' }, summary.quarantined);
    oldestPending.set(summary.oldestPendingSeconds);
  }
  return { body: await registry.metrics(), contentType: registry.contentType };
}
