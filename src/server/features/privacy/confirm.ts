import 'server-only';
import type { Db } from '../../platform/db';
import { appendAudit } from '../../platform/audit';
import { enqueue } from '../../delivery/queue/enqueue';
import { dropJobsOf } from '../../delivery/queue/operations';
import { addressHash } from '../../platform/people/address-hash';
import { liftSuppression } from '../../platform/people/suppression';
import { honourJob } from './honour-job';
import { linkOwner } from './link-job';
import { verifyPrivacyLink } from './link-token';
import { joinOpenGrievance, lockGrievancesOf } from './grievances';
import { closeRequest, openRequest } from './records';

/** What confirming a link did. */
export type ConfirmResult =
  | { outcome: 'confirmed'; reference: string }
  /** The link was confirmed before: nothing more is done. */
  | { outcome: 'used' }
  | { outcome: 'expired' | 'invalid' };

/**
 * Confirms the privacy request a link carries, for the POST of its button (never on GET, so a mail
 * scanner opening the link changes nothing). A valid link, at most 24 hours old at `now`, stores
 * the verified request (due in 90 days, DPDP Rules 2025 rule 14), queues its `privacy.honour` job,
 * drops the link's e-mail job (it held the token) and audits it as actor `visitor`, in one
 * transaction. A `resume` request (hear from us again) is honoured right here instead: the
 * address's suppression is lifted and the request closed (tombstone, outcome `suppression lifted`
 * or `not suppressed`) and audited, in the same transaction; only its owner, who proved the
 * address by the link, can lift it. The link's nonce is unique: a second post of the same link
 * does nothing (`used`).
 * An expired or altered link does nothing either.
 * @throws on database errors (nothing is then stored).
 */
export async function confirmPrivacyRequest(
  db: Db,
  token: unknown,
  secret: string,
  now: Date = new Date(),
): Promise<ConfirmResult> {
  const link = verifyPrivacyLink(token, secret, now.getTime());
  if (!link.ok) return { outcome: link.reason };
  const { request } = link;
  const emailHash = addressHash(request.email, secret);
  return db.transaction(async (tx): Promise<ConfirmResult> => {
    if (request.kind === 'grievance') await lockGrievancesOf(tx, emailHash);
    const row = await openRequest(tx, {
      kind: request.kind,
      email: request.email,
      emailHash,
      details: request.details,
      linkNonce: request.nonce,
      requestedAt: new Date(request.requestedAt),
      verifiedAt: now,
    });
    if (!row) return { outcome: 'used' };
    const joined =
      request.kind === 'grievance'
        ? await joinOpenGrievance(tx, {
            emailHash,
            text: request.details,
            by: 'link',
            now,
            except: row.id,
          })
        : undefined;
    if (joined) {
      await closeRequest(tx, row.id, `joined ${joined}`, now);
      await dropJobsOf(tx, [linkOwner(request.nonce)]);
      await appendAudit(tx, 'visitor', 'privacy-request', row.reference, `joined ${joined}`);
      return { outcome: 'confirmed', reference: joined };
    }
    await dropJobsOf(tx, [linkOwner(request.nonce)]);
    await appendAudit(tx, 'visitor', 'privacy-request', row.reference, request.kind);
    if (request.kind === 'resume') {
      const lifted = await liftSuppression(tx, row.emailHash);
      const outcome = lifted ? 'suppression lifted' : 'not suppressed';
      await closeRequest(tx, row.id, outcome, now);
      await appendAudit(tx, 'visitor', 'privacy-outcome', row.reference, outcome);
      return { outcome: 'confirmed', reference: row.reference };
    }
    await enqueue(
      tx,
      honourJob,
      { requestId: row.id },
      { dedupeKey: `privacy.honour:${row.id}`, owner: row.id },
    );
    return { outcome: 'confirmed', reference: row.reference };
  });
}
