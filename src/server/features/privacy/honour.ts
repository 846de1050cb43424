import 'server-only';
import type { z } from 'zod';
import type { Db } from '../../platform/db';
import { appendAudit } from '../../platform/audit';
import type { SendMail } from '../../delivery/email/transport';
import { JobFailure } from '../../delivery/queue/failure';
import type { JobHandler } from '../../delivery/queue/job';
import { collectPersonData } from './copy';
import { eraseAddress, type ErasureDeps } from './erase';
import type { honourJob } from './honour-job';
import {
  buildAcknowledgementMail,
  buildCopyMail,
  buildErasedMail,
  type PrivacyMailFrom,
} from './mails';
import { closeRequest, counted, findRequest } from './records';

/** What honouring requests needs: the erasure's settings (with who holds data), the sender. */
export type HonourDeps = Omit<ErasureDeps, 'secret'> & {
  db: Db;
  secret: () => Promise<string>;
  send: SendMail;
  from: PrivacyMailFrom;
  /** How long to wait before trying again while demo cancellations are unsent (ms). */
  retryAfterMs?: number;
};

/**
 * Runs `privacy.honour` jobs, by kind of request (DPDP Act 2023):
 * - `copy` (s.11): e-mails every enquiry, demo and delivery held for the address with where they
 *   went (JSON attached), then closes the request (tombstone, `copy sent: …`);
 * - `erase` (s.12), `withdraw` (s.6(4)): eraseAddress, the confirmation e-mailed before the
 *   address is suppressed; while cancellations of its demos are unsent, fails temporarily and is
 *   tried again;
 * - `correct` (s.12), `nominate` (s.14), `grievance` (s.13): e-mails an acknowledgement with the
 *   reference and due date; the request stays open for an admin to answer in the console.
 * An e-mail the suppression gate withholds (the address was erased or withdrawn meanwhile) is not
 * retried: the copy's request closes saying so, an erasure goes on without its confirmation.
 * A request closed or gone since is skipped. Outcomes are audited as actor `visitor`.
 * @throws JobFailure from `send`, or temporary while cancellations are unsent.
 */
export function honourPrivacyRequest(
  deps: HonourDeps,
): JobHandler<z.infer<typeof honourJob.payload>> {
  const { db, send, from } = deps;
  return async ({ payload }) => {
    const request = await findRequest(db, payload.requestId);
    if (!request || request.status !== 'open' || !request.email)
      return { skipped: 'request closed' };
    const email = request.email;
    switch (request.kind) {
      case 'copy': {
        const { data, counts } = await collectPersonData(db, deps.holders, email);
        const sent = await send(buildCopyMail(email, request.reference, data, counts, from));
        const outcome =
          sent === 'suppressed'
            ? 'copy not sent: address suppressed'
            : `copy sent: ${counted(counts.enquiries, 'enquiry', 'enquiries')}, ${counted(counts.demos, 'demo')}`;
        await db.transaction(async (tx) => {
          await closeRequest(tx, request.id, outcome, new Date());
          await appendAudit(tx, 'visitor', 'privacy-outcome', request.reference, outcome);
        });
        return;
      }
      case 'erase':
      case 'withdraw': {
        const kind = request.kind;
        const result = await eraseAddress(
          db,
          { webhookUrls: deps.webhookUrls, holders: deps.holders, secret: await deps.secret() },
          { email, kind, request, actor: 'visitor' },
          {
            waitMs: 0,
            notify: async ({ reference, ...counts }) => {
              await send(buildErasedMail(email, reference, kind, counts, from));
            },
          },
        );
        if (result.outcome === 'cancellations-unsent')
          throw new JobFailure('demo cancellations unsent', false, deps.retryAfterMs ?? 5_000);
        return;
      }
      default:
        await send(
          buildAcknowledgementMail(email, request.reference, request.kind, request.dueAt, from),
        );
        await appendAudit(db, 'visitor', 'privacy-outcome', request.reference, 'acknowledged');
    }
  };
}
