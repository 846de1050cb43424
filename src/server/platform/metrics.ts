import 'server-only';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { DeliverySummary } from '@/lib/delivery-alarm';
import type { PrivacySummary } from '@/lib/privacy-alarm';
import { seamRegistry } from '@/seam/registry';

type Metrics = {
  registry: Registry;
  enquiries: Counter<'outcome' | 'reason'>;
  jobs: Counter<'kind' | 'outcome'>;
  unprovenMails: Counter<'kind' | 'verdict'>;
  suppressedMails: Counter;
  delivery: Gauge<'state'>;
  oldestPending: Gauge;
  channelJobs: Gauge<'channel' | 'state'>;
  channelOldest: Gauge<'channel'>;
  privacy: Gauge<'state'>;
  staticCache: Gauge<'measure'>;
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
      jobs: new Counter({
        name: 'nirmaya_jobs_total',
        help: 'Job attempts by kind (e.g. enquiry.email) and outcome: sent, retried (temporary failure), failed (given up)',
        labelNames: ['kind', 'outcome'],
        registers: [registry],
      }),
      unprovenMails: new Counter({
        name: 'nirmaya_unproven_mails_total',
        help: 'E-mails to addresses on requests not yet proved, by kind and verdict: send, address-limit (the recipient had its share), site-limit (the site-wide hourly limit)',
        labelNames: ['kind', 'verdict'],
        registers: [registry],
      }),
      suppressedMails: new Counter({
        name: 'nirmaya_mail_suppressed_total',
        help: 'E-mails withheld at send time because a recipient is on the suppression list (erased or withdrawn)',
        registers: [registry],
      }),
      delivery: new Gauge({
        name: 'nirmaya_delivery_jobs',
        help: 'Jobs by state over every channel (pending: due, not delivered yet; scheduled: not yet due; failed: not acknowledged), and quarantined enquiries',
        labelNames: ['state'],
        registers: [registry],
      }),
      oldestPending: new Gauge({
        name: 'nirmaya_delivery_oldest_pending_seconds',
        help: 'Seconds since the longest-waiting due job became due, 0 when none',
        registers: [registry],
      }),
      channelJobs: new Gauge({
        name: 'nirmaya_delivery_channel_jobs',
        help: 'Jobs per channel (job kind) by state: pending (due), scheduled, failed, acknowledged',
        labelNames: ['channel', 'state'],
        registers: [registry],
      }),
      channelOldest: new Gauge({
        name: 'nirmaya_delivery_channel_oldest_pending_seconds',
        help: 'Per channel: seconds since its longest-waiting due job became due, 0 when none',
        labelNames: ['channel'],
        registers: [registry],
      }),
      staticCache: new Gauge({
        name: 'nirmaya_seam_static_cache_bytes',
        help: "The seam's cache of compressed build files (src/seam/static-cache.ts): bytes held (measure=held) and its cap (measure=cap)",
        labelNames: ['measure'],
        registers: [registry],
        collect() {
          const { stats } = seamRegistry();
          this.set({ measure: 'held' }, stats.staticCacheBytes());
          this.set({ measure: 'cap' }, stats.staticCacheMaxBytes);
        },
      }),
      privacy: new Gauge({
        name: 'nirmaya_privacy_requests',
        help: 'Open privacy requests by state: open (all), due_soon (due within PRIVACY_DUE_ALERT_DAYS, not yet overdue), overdue',
        labelNames: ['state'],
        registers: [registry],
      }),
    };
  })();
  return holder.__nirmayaMetrics;
}

/**
 * Counts one contact form submission (for /api/metrics), called by the submit path.
 * @param outcome e.g. `accepted`, `quarantined`, `rejected`, `unavailable`
 * @param reason why, when there is one (e.g. `honeypot`, `rate-limited`); '' otherwise
 */
export function countEnquiry(outcome: string, reason = ''): void {
  metrics().enquiries.inc({ outcome, reason });
}

/** Counts one job attempt's outcome by its kind (the queue worker). */
export function countJob(kind: string, outcome: 'sent' | 'retried' | 'failed'): void {
  metrics().jobs.inc({ kind, outcome });
}

/**
 * Counts one e-mail to an address on a request not yet proved, by kind (e.g. `demo.confirm`) and
 * verdict (`send`, `delay`, `address-limit`, `client-limit`): the mail budget (platform/people/mail-budget).
 */
export function countUnprovenMail(kind: string, verdict: string): void {
  metrics().unprovenMails.inc({ kind, verdict });
}

/** Counts one e-mail withheld because a visitor recipient is suppressed (the e-mail gate). */
export function countSuppressedMail(): void {
  metrics().suppressedMails.inc();
}

/**
 * The Prometheus text exposition of every metric, with the delivery gauges set from `summary` and
 * the privacy-request gauge from `privacy` (each omitted when the database did not answer).
 * Returns the body and its content type.
 */
export async function renderMetrics(
  summary: DeliverySummary | undefined,
  privacy?: PrivacySummary,
): Promise<{ body: string; contentType: string }> {
  const {
    registry,
    delivery,
    oldestPending,
    channelJobs,
    channelOldest,
    privacy: requests,
  } = metrics();
  if (privacy) {
    requests.set({ state: 'open' }, privacy.open);
    requests.set({ state: 'due_soon' }, privacy.dueSoon);
    requests.set({ state: 'overdue' }, privacy.overdue);
  }
  if (summary) {
    delivery.set({ state: 'pending' }, summary.pending);
    delivery.set({ state: 'scheduled' }, summary.scheduled);
    delivery.set({ state: 'failed' }, summary.failed);
    delivery.set({ state: 'quarantined' }, summary.quarantined);
    oldestPending.set(summary.oldestPendingSeconds);
    // A channel that emptied since the last scrape reads 0, not its old value.
    channelJobs.reset();
    channelOldest.reset();
    for (const [channel, backlog] of Object.entries(summary.channels)) {
      channelJobs.set({ channel, state: 'pending' }, backlog.due);
      channelJobs.set({ channel, state: 'scheduled' }, backlog.scheduled);
      channelJobs.set({ channel, state: 'failed' }, backlog.failed);
      channelJobs.set({ channel, state: 'acknowledged' }, backlog.acknowledged);
      channelOldest.set({ channel }, backlog.oldestDueSeconds);
    }
  }
  return { body: await registry.metrics(), contentType: registry.contentType };
}
