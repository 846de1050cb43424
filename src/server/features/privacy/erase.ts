import 'server-only';
import { randomUUID } from 'node:crypto';
import { count, ilike, inArray, or, sql } from 'drizzle-orm';
import { containsPattern } from '@/lib/like-pattern';
import type { Db } from '../../platform/db';
import { auditLog } from '../../platform/audit/schema';
import { demoBookings } from '../demos/schema';
import { appendAudit, type Actor } from '../../platform/audit';
import type { BookingSettings } from '../demos/types';
import { deleteLeadsByEmail, leadsFrom } from '../../wiring/lead-operations';
import { newReference } from '../../platform/reference';
import { addressHash } from '../../platform/people/address-hash';
import { closeRequest, counted, openRequest, type PrivacyRequest } from './records';
import { suppress } from '../../platform/people/suppression';
import { enqueueLeadErased } from './webhook';

/** What an erasure needs from the configuration. */
export type ErasureDeps = {
  /** The site secret, for the keyed hash of the address. */
  secret: string;
  /** `WEBHOOK_URLS`: each gets a `lead.erased` event per erased enquiry. */
  webhookUrls: readonly string[];
  /** Booking settings when booking is on: live demos are cancelled first with them. */
  settings?: BookingSettings;
};

/** Whose data an erasure removes, and on whose behalf. */
export type ErasureSubject = {
  email: string;
  /** `erase` (s.12) or `withdraw` (s.6(4)): both erase and suppress; the reason is kept. */
  kind: 'erase' | 'withdraw';
  /** The verified request it honours; without it (an operator's erasure) one is recorded. */
  request?: PrivacyRequest;
  /** Who asked: `visitor` for the signed link, else the operator (`cli` or their e-mail). */
  actor: Actor | 'visitor';
};

/** What eraseAddress did. */
export type ErasureResult =
  | { outcome: 'erased'; reference: string; enquiries: number; demos: number; cancelled: number }
  /** Cancellations of live demos not delivered yet: nothing erased, try again later. */
  | { outcome: 'cancellations-unsent'; cancelled: number; unsent: number };

/** How long to wait for the cancellations, and what to do just before erasing. */
export type ErasureOptions = {
  /** How long to wait for the demo cancellations to be delivered (ms; 0: do not wait). */
  waitMs?: number;
  pollMs?: number;
  /** The time of the erasure (ms; default now). */
  now?: number;
  /**
   * Called with the counts once the cancellations are delivered, before anything is erased or
   * suppressed: the confirmation e-mail to the person goes here. When it throws, nothing is erased.
   */
  notify?: (facts: { reference: string; enquiries: number; demos: number }) => Promise<void>;
};

/**
 * Erases everything held for `subject.email` (DPDP Act s.12 erasure, s.6(4) withdrawal; compared
 * case-insensitively): each live demo is cancelled first with the visitor's cancel (METHOD:CANCEL
 * to the host, `demo.cancelled`), and nothing is erased until those cancellations are delivered
 * (deleteLeadsByEmail). Then, in ONE transaction: a `lead.erased` event per enquiry to each webhook
 * endpoint, the address's keyed hash put on the suppression list, the address scrubbed from the
 * audit log, the enquiries (with their demos and pending jobs) deleted, the request closed as a
 * tombstone (recorded first for an operator's erasure) and the outcome audited.
 * @throws on database errors, and what `options.notify` throws (nothing is then erased).
 */
export async function eraseAddress(
  db: Db,
  deps: ErasureDeps,
  subject: ErasureSubject,
  options: ErasureOptions = {},
): Promise<ErasureResult> {
  const now = new Date(options.now ?? Date.now());
  const emailHash = addressHash(subject.email, deps.secret);
  const reference = subject.request?.reference ?? newReference('PR');
  let result: { reference: string; enquiries: number; demos: number } | undefined;
  const erased = await deleteLeadsByEmail(db, subject.email, {
    settings: deps.settings,
    waitMs: options.waitMs,
    pollMs: options.pollMs,
    now: now.getTime(),
    beforeErasing: async () => {
      if (!options.notify) return;
      const leadIds = (await leadsFrom(db, subject.email)).map((lead) => lead.id);
      await options.notify({
        reference,
        enquiries: leadIds.length,
        demos: await demosOf(db, leadIds),
      });
    },
    within: async (tx, erasing) => {
      const ids = erasing.map((lead) => lead.id);
      const demos = await demosOf(tx, ids);
      const request =
        subject.request ??
        (await openRequest(tx, {
          kind: subject.kind,
          email: subject.email.trim(),
          emailHash,
          details: '',
          linkNonce: `operator:${randomUUID()}`,
          requestedAt: now,
          verifiedAt: now,
          reference,
        }));
      if (!request) throw new Error('The privacy request could not be recorded.');
      // Receivers only ever got delivered enquiries: quarantined spam is erased without an event.
      for (const lead of erasing.filter((each) => each.delivered))
        await enqueueLeadErased(tx, lead.reference, deps.webhookUrls, request.id, now);
      await suppress(tx, emailHash, subject.kind, now);
      await scrubAudit(tx, subject.email);
      if (!subject.request)
        await appendAudit(tx, subject.actor, 'privacy-request', request.reference, subject.kind);
      const outcome = `erased ${counted(erasing.length, 'enquiry', 'enquiries')}, ${counted(demos, 'demo')}`;
      await closeRequest(tx, request.id, outcome, now);
      await appendAudit(tx, subject.actor, 'privacy-outcome', request.reference, outcome);
      result = { reference: request.reference, enquiries: erasing.length, demos };
    },
  });
  if (erased.outcome === 'cancellations-unsent') return erased;
  if (!result) throw new Error('The erasure did not run.');
  return { outcome: 'erased', ...result, cancelled: erased.cancelled };
}

/** How many demo bookings (live or cancelled) the enquiries `leadIds` have. */
async function demosOf(db: Db, leadIds: readonly string[]): Promise<number> {
  if (leadIds.length === 0) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(demoBookings)
    .where(inArray(demoBookings.leadId, [...leadIds]));
  return row?.n ?? 0;
}

/**
 * Removes `email` from the audit log in the erasure's transaction: a subject that is the address
 * becomes `[erased]`, and the address inside a detail is replaced by `[erased]` (the log is
 * append-only but for this and the retention purge).
 */
async function scrubAudit(tx: Db, email: string): Promise<void> {
  const address = email.trim().toLowerCase();
  const pattern = containsPattern(address);
  const escaped = address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await tx
    .update(auditLog)
    .set({
      subject: sql`case when lower(${auditLog.subject}) = ${address} then '[erased]' else regexp_replace(${auditLog.subject}, ${escaped}, '[erased]', 'gi') end`,
      detail: sql`regexp_replace(${auditLog.detail}, ${escaped}, '[erased]', 'gi')`,
    })
    .where(or(ilike(auditLog.subject, pattern), ilike(auditLog.detail, pattern)));
}
