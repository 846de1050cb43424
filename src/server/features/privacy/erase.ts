import 'server-only';
import { randomUUID } from 'node:crypto';
import { ilike, or, sql } from 'drizzle-orm';
import { containsPattern } from '@/lib/like-pattern';
import type { Db } from '../../platform/db';
import { auditLog } from '../../platform/audit/schema';
import { appendAudit, type Actor } from '../../platform/audit';
import { newReference } from '../../platform/reference';
import { addressHash, addressKeys } from '../../platform/people/address-hash';
import { suppress } from '../../platform/people/suppression';
import { countHeld } from './copy';
import { addCounts, type HeldCounts, type PersonalDataHolder } from './personal-data';
import { closeRequest, counted, openRequest, type PrivacyRequest } from './records';
import { enqueueLeadErased } from './webhook';

/** What an erasure needs from the configuration. */
export type ErasureDeps = {
  /** The site secret, for the keyed hash of the address. */
  secret: string;
  /** `WEBHOOK_URLS`: each gets a `lead.erased` event per erased enquiry they were sent. */
  webhookUrls: readonly string[];
  /** Who holds the person's data, in erasure order (src/server/wiring/personal-data.ts). */
  holders: readonly PersonalDataHolder[];
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
  | ({ outcome: 'erased'; reference: string; cancelled: number } & HeldCounts)
  /** Cancellations of live demos not delivered yet: nothing erased, try again later. */
  | { outcome: 'cancellations-unsent'; cancelled: number; unsent: number };

/** How long to wait for the cancellations, and what to do just before erasing. */
export type ErasureOptions = {
  /** How long to wait for the demo cancellations to be delivered (ms; default 60 s, 0: look once). */
  waitMs?: number;
  /** How often to look meanwhile (ms, default 500). */
  pollMs?: number;
  /** The time of the erasure (ms; default now). */
  now?: number;
  /**
   * Called with the counts once the cancellations are delivered, before anything is erased or
   * suppressed: the confirmation e-mail to the person goes here. When it throws, nothing is erased.
   */
  notify?: (facts: { reference: string } & HeldCounts) => Promise<void>;
};

/**
 * Erases everything held for `subject.email` (DPDP Act s.12 erasure, s.6(4) withdrawal; compared
 * case-insensitively), holder by holder in `deps.holders`' order. First each holder prepares (the
 * demos: each live demo is cancelled with the visitor's cancel, METHOD:CANCEL to the host and
 * `demo.cancelled`), and nothing is erased until those cancellations are delivered (waiting up to
 * `options.waitMs`). Then, in ONE transaction: each holder erases its part (demo bookings, then the
 * enquiries with their pending jobs), a `lead.erased` event goes per erased enquiry the receivers
 * got to each webhook endpoint, the address's keyed hashes (its spelling's and its inbox's:
 * addressKeys) are put on the suppression list, the
 * address is scrubbed from the audit log, the request is closed as a tombstone (recorded first
 * for an operator's erasure) and the outcome audited.
 * @throws on database errors, and what `options.notify` throws (nothing is then erased).
 */
export async function eraseAddress(
  db: Db,
  deps: ErasureDeps,
  subject: ErasureSubject,
  options: ErasureOptions = {},
): Promise<ErasureResult> {
  const now = new Date(options.now ?? Date.now());
  const { email } = subject;
  const emailHash = addressHash(email, deps.secret);
  const reference = subject.request?.reference ?? newReference('PR');
  const timing = {
    now: now.getTime(),
    waitMs: options.waitMs ?? 60_000,
    pollMs: options.pollMs ?? 500,
  };
  let cancelled = 0;
  let unsent = 0;
  for (const holder of deps.holders) {
    const prepared = await holder.prepare?.(db, email, timing);
    cancelled += prepared?.cancelled ?? 0;
    unsent += prepared?.unsent ?? 0;
  }
  if (unsent > 0) return { outcome: 'cancellations-unsent', cancelled, unsent };
  if (options.notify)
    await options.notify({ reference, ...(await countHeld(db, deps.holders, email)) });
  return db.transaction(async (tx): Promise<ErasureResult> => {
    const parts = [];
    for (const holder of deps.holders)
      if (holder.erase) parts.push(await holder.erase(tx, email, now));
    const counts = addCounts(parts.map((part) => part.counts));
    const request =
      subject.request ??
      (await openRequest(tx, {
        kind: subject.kind,
        email: email.trim(),
        emailHash,
        details: '',
        linkNonce: `operator:${randomUUID()}`,
        requestedAt: now,
        verifiedAt: now,
        reference,
      }));
    if (!request) throw new Error('The privacy request could not be recorded.');
    for (const shared of parts.flatMap((part) => part.sharedReferences))
      await enqueueLeadErased(tx, shared, deps.webhookUrls, request.id, now);
    await suppress(tx, addressKeys(email, deps.secret), subject.kind, now);
    await scrubAudit(tx, email);
    if (!subject.request)
      await appendAudit(tx, subject.actor, 'privacy-request', request.reference, subject.kind);
    const outcome = `erased ${counted(counts.enquiries, 'enquiry', 'enquiries')}, ${counted(counts.demos, 'demo')}`;
    await closeRequest(tx, request.id, outcome, now);
    await appendAudit(tx, subject.actor, 'privacy-outcome', request.reference, outcome);
    return { outcome: 'erased', reference: request.reference, cancelled, ...counts };
  });
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
