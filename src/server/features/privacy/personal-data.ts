import 'server-only';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db';

/**
 * What "copy a person's data", "erase a person" and "expire old data" mean, for every part of the
 * site that holds personal data. Privacy defines it and runs it (copy.ts, erase.ts, retention.ts);
 * each feature implements its part beside its own tables; the wiring composes them in one ordered
 * list (src/server/wiring/personal-data.ts). A person is named by their e-mail address, compared
 * trimmed and case-insensitively.
 */

/**
 * What the person's e-mails and a request's outcome count (`erased 2 enquiries, 1 demo`): the
 * enquiries and the demo bookings held. A holder reports the kinds it holds, others count 0.
 */
export type HeldCounts = { enquiries: number; demos: number };

/** The part of a person's copy (DPDP Act s.11) one holder gives. */
export type CopyPart = {
  /** Sections of the copy's JSON, each a list of records (e.g. `enquiries`). */
  sections: Record<string, readonly unknown[]>;
  /**
   * Who owns the queued deliveries of these records (the queue's `owner`) and the reference the
   * person knows them by: the copy lists those deliveries.
   */
  deliveryOwners: readonly { owner: string; reference: string }[];
  /** Those the records were shared with (an inbox, a webhook host, a demo host). */
  sharedWith: readonly string[];
  counts: Partial<HeldCounts>;
};

/** What one holder's preparation left: messages that must leave before its rows may go. */
export type Preparation = {
  /** Live things ended first (demos cancelled). */
  cancelled: number;
  /** Their messages (cancellations) still to be delivered: while any, nothing is erased. */
  unsent: number;
};

/** The timing of an erasure's preparation. */
export type PrepareOptions = {
  /** The time of the erasure (ms). */
  now: number;
  /** How long to wait for the messages to leave (ms; 0: look once). */
  waitMs: number;
  /** How often to look meanwhile (ms). */
  pollMs: number;
};

/** What one holder erased in the erasure's transaction. */
export type ErasedPart = {
  counts: Partial<HeldCounts>;
  /**
   * References of erased records that were shared with the webhook receivers: each gets a
   * `lead.erased` event so the receivers erase their copy too (DPDP Act s.8(7)(b)).
   */
  sharedReferences: readonly string[];
};

/** How long each kind of data is kept, in days. */
export type Retention = {
  /** Enquiries, released spam and the audit log (LEADS_RETENTION_DAYS). */
  leadsDays: number;
  /** Quarantined spam never released (SPAM_RETENTION_DAYS). */
  spamDays: number;
};

/** One part of the site that holds personal data, and how to copy, erase and expire it. */
export type PersonalDataHolder = {
  /** Who holds it, e.g. `contact` (for logs and the coverage test). */
  name: string;
  /** The tables it holds personal data in: every table is in a holder's or declared free. */
  tables: readonly PgTable[];
  /** What it holds for `email` now (before an erasure, for the person's confirmation). */
  count?: (db: Db, email: string) => Promise<Partial<HeldCounts>>;
  /** Its part of the person's copy. */
  copy?: (db: Db, email: string) => Promise<CopyPart>;
  /**
   * Before the erasure's transaction: end what must be ended first and wait (up to
   * `options.waitMs`) until its messages are delivered (demos: cancel with METHOD:CANCEL).
   */
  prepare?: (db: Db, email: string, options: PrepareOptions) => Promise<Preparation>;
  /** Inside the erasure's ONE transaction: delete what it holds for `email`. */
  erase?: (tx: Db, email: string, now: Date) => Promise<ErasedPart>;
  /** The daily purge: delete or forget what is past `retention` at `now`. */
  expire?: (db: Db, now: Date, retention: Retention) => Promise<Partial<HeldCounts>>;
};

/** A table declared free of personal data, and why. */
export type FreeTable = { table: PgTable; reason: string };

/** The counts of `parts` added up, each kind 0 when no holder reports it. */
export function addCounts(parts: readonly Partial<HeldCounts>[]): HeldCounts {
  return parts.reduce<HeldCounts>(
    (sum, part) => ({
      enquiries: sum.enquiries + (part.enquiries ?? 0),
      demos: sum.demos + (part.demos ?? 0),
    }),
    { enquiries: 0, demos: 0 },
  );
}
