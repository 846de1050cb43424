import 'server-only';
import { z } from 'zod';
import type { Db } from '../../platform/db';
import { log } from '../../platform/log';
import { enqueue } from '../../delivery/queue/enqueue';
import { dropSentJobs } from '../../delivery/queue/operations';
import { defineJob, type JobHandler } from '../../delivery/queue/job';
import { addressKeys } from '../../platform/people/address-hash';
import { admitUnprovenMail, type MailBudgetLimits } from '../../platform/people/mail-budget';
import {
  claimResumeLink,
  isSuppressed,
  isSuppressedExactly,
} from '../../platform/people/suppression';
import { holdsDataFor } from './copy';
import { joinOpenGrievance } from './grievances';
import { verifyPrivacyLink } from './link-token';
import { linkOwner, privacyLinkJob } from './link-job';
import type { PersonalDataHolder } from './personal-data';

/**
 * The `privacy.ask` job: one valid post of the privacy form, queued the same way whoever's the
 * address, so the form's answer and its work do not depend on it; what the post leads to is decided
 * here, on the queue worker. Its payload is the request's signed link token (the address in it is
 * encoded, not in clear), when it was asked (ms), the keyed hash of the asking client's group
 * (hashClientGroup: what the budget counts per client) and whether a proof of work came with the
 * post (without one, its mail waits while the site is busy).
 */
export const privacyAskJob = defineJob(
  'privacy.ask',
  z.object({
    token: z.string(),
    at: z.number().int(),
    group: z.string(),
    proofOfWork: z.boolean(),
  }),
);

/** What deciding a privacy request needs. */
export type DecideDeps = {
  db: Db;
  secret: () => Promise<string>;
  /** The budget of e-mails to unproven addresses (UNPROVEN_MAIL_PER_ADDRESS, _PER_HOUR). */
  mailBudget: MailBudgetLimits;
  /** Who holds personal data: a link goes only to an address something is held for. */
  holders: readonly PersonalDataHolder[];
  /** Called after a link is queued, to wake the queue worker. */
  onQueued?: () => void;
};

/**
 * The `privacy.ask` handler, in one transaction at the time the request was asked: a suppressed
 * inbox (any spelling of it, isSuppressed) gets nothing but the `resume` (hear from us again)
 * link, and `resume` applies only to the very spelling that asked to be suppressed (only it can
 * lift it, isSuppressedExactly), at most one link a week (claimResumeLink, by that spelling); a
 * grievance from an address with an open one joins it (no mail); otherwise, when the site holds
 * data for the address (`deps.holders`, by its exact spelling), the request is a grievance (DPDP
 * Act s.13: anyone may complain) or a `resume`, the link e-mail (`privacy.link`) is queued if the
 * inbox's mail budget admits it (admitUnprovenMail: per inbox and per client group, grievance
 * links apart), delayed to its slot when the site is busy and the post came without its proof of
 * work. Logs `privacy.asked` with the outcome.
 * @throws on database errors (nothing is then decided; the job is tried again).
 */
export function decidePrivacyAsk(
  deps: DecideDeps,
): JobHandler<z.infer<typeof privacyAskJob.payload>> {
  return async ({ payload }) => {
    const secret = await deps.secret();
    const link = verifyPrivacyLink(payload.token, secret, payload.at);
    if (!link.ok) return { skipped: `link ${link.reason}` };
    const { kind, email, details, nonce } = link.request;
    const now = new Date(payload.at);
    const outcome = await deps.db.transaction(async (tx) => {
      const keys = addressKeys(email, secret);
      const emailHash = keys.exact;
      const applies =
        kind === 'resume'
          ? await isSuppressedExactly(tx, emailHash)
          : !(await isSuppressed(tx, keys));
      if (!applies) return 'not-applicable' as const;
      if (
        kind !== 'grievance' &&
        kind !== 'resume' &&
        !(await holdsDataFor(tx, deps.holders, email))
      )
        return 'unknown' as const;
      if (kind === 'grievance') {
        const joined = await joinOpenGrievance(tx, { emailHash, text: details, by: 'form', now });
        if (joined) return 'joined' as const;
      }
      if (kind === 'resume' && !(await claimResumeLink(tx, emailHash, now)))
        return 'resume-weekly' as const;
      const budget = await admitUnprovenMail(
        tx,
        {
          emailHash: keys.mailbox,
          kind: privacyLinkJob.name,
          bucket: kind === 'grievance' ? 'grievance' : 'proof',
          requester: { group: payload.group, proofOfWork: payload.proofOfWork },
          now,
        },
        deps.mailBudget,
      );
      if (budget.verdict !== 'send' && budget.verdict !== 'delay') return budget.verdict;
      await enqueue(
        tx,
        privacyLinkJob,
        { token: payload.token },
        {
          dedupeKey: `privacy.link:${nonce}`,
          owner: linkOwner(nonce),
          ...(budget.verdict === 'delay' && { notBefore: budget.sendAt }),
        },
      );
      return budget.verdict === 'delay' ? ('delayed' as const) : ('queued' as const);
    });
    log.info({ event: 'privacy.asked', kind, outcome });
    if (outcome !== 'queued' && outcome !== 'delayed') return { skipped: outcome };
    deps.onQueued?.();
  };
}

/**
 * Deletes the `privacy.ask` and `privacy.link` jobs already done: their payload, the link's token,
 * encodes the address and the person's words of a request never confirmed (a confirmed one drops
 * its own). Run by the daily purge. Returns how many were deleted.
 */
export async function forgetSentLinks(db: Db): Promise<number> {
  return (
    (await dropSentJobs(db, privacyAskJob.name)) + (await dropSentJobs(db, privacyLinkJob.name))
  );
}
