import 'server-only';
import type { OutboxChannel } from '../db/schema';
import { errorFacts } from '../log';
import type { ClaimedJob } from './queue';

/**
 * Delivers one claimed job; resolves once the receiver accepted it.
 * @throws DeliveryFailure (any other error counts as a temporary failure).
 */
export type JobSender = (job: ClaimedJob) => Promise<void>;

/** A worker's sender per channel (issue 12); it claims only jobs of the channels it has. */
export type ChannelSenders = Partial<Record<OutboxChannel, JobSender>>;

/**
 * A failed delivery as its sender judged it: `summary` for the job's `last_error` (an error class,
 * code or status, never personal data), whether retrying is pointless (`permanent`), and the least
 * wait before the next attempt in ms (`retryAfterMs`, e.g. from an HTTP `Retry-After`).
 */
export class DeliveryFailure extends Error {
  constructor(
    readonly summary: string,
    readonly permanent: boolean,
    readonly retryAfterMs = 0,
    options?: ErrorOptions,
  ) {
    super(summary, options);
    this.name = 'DeliveryFailure';
  }
}

/**
 * Wraps any error as a DeliveryFailure (a DeliveryFailure is returned as is), summarised by its
 * class, `code` and SMTP `responseCode` (e.g. `Error EENVELOPE 550`); temporary unless `permanent`.
 */
export function asDeliveryFailure(error: unknown, permanent = false): DeliveryFailure {
  if (error instanceof DeliveryFailure) return error;
  const facts = errorFacts(error);
  const summary = `${facts.type}${facts.code ? ` ${facts.code}` : ''}${facts.responseCode ? ` ${facts.responseCode}` : ''}`;
  return new DeliveryFailure(summary, permanent, 0, { cause: error });
}
