import 'server-only';
import type { JobStatus } from '../../delivery/queue/schema';

/** How an operator names where a job delivers: the provider's mailbox, a webhook, a demo e-mail. */
export type DeliveryChannel = 'email' | 'webhook' | 'demo';

/** One delivery job of a lead as the operator sees it. */
export type JobState = { channel: DeliveryChannel; status: JobStatus; lastError: string | null };

const channelOrder: DeliveryChannel[] = ['email', 'webhook', 'demo'];
const statusOrder: JobStatus[] = ['sent', 'sending', 'pending', 'failed'];

/**
 * A lead's delivery per channel in one line, e.g. `email sent; webhook 1/2 sent, 1/2
 * failed (HTTP 410)`, then a booked demo's e-mails (`demo`): a channel with one job shows its status, one with several shows how many are
 * in each; failures quote their last errors. `none` when nothing was queued (spam).
 */
export function describeDeliveries(jobs: readonly JobState[]): string {
  const parts = channelOrder.flatMap((channel) => {
    const own = jobs.filter((job) => job.channel === channel);
    if (own.length === 0) return [];
    const states = statusOrder.flatMap((status) => {
      const matching = own.filter((job) => job.status === status);
      if (matching.length === 0) return [];
      const errors = [...new Set(matching.map((job) => job.lastError ?? 'unknown'))].join('; ');
      const share = own.length === 1 ? status : `${matching.length}/${own.length} ${status}`;
      return [status === 'failed' ? `${share} (${errors})` : share];
    });
    return [`${channel} ${states.join(', ')}`];
  });
  return parts.length > 0 ? parts.join('; ') : 'none';
}
