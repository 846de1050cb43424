import 'server-only';
import { z } from 'zod';
import { privacyConsoleText } from '@/content/console';
import { domainOf } from '../../delivery/email/message';
import type { SendMail } from '../../delivery/email/transport';
import type { Db } from '../../platform/db';
import { defineJob, type JobHandler } from '../../delivery/queue/job';
import { dropSentJobs } from '../../delivery/queue/operations';

/**
 * The answer an admin wrote to a privacy request, e-mailed to the person. The request is closed
 * (a tombstone) when the reply is queued, so the job carries everything its mail needs: the
 * reference, the person's address and the text.
 */
export const privacyReplyJob = defineJob(
  'privacy.reply',
  z.object({
    reference: z.string().regex(/^PR-[A-Z0-9-]+$/),
    to: z.email(),
    text: z.string().min(1),
  }),
);

/** The payload of a `privacy.reply` job. */
export type PrivacyReply = z.infer<typeof privacyReplyJob.payload>;

/**
 * Deletes the `privacy.reply` jobs already sent: their payload holds the person's address and the
 * reply, which the closed request (the tombstone) no longer keeps. Run by the daily purge.
 * @returns how many were deleted.
 */
export function forgetSentReplies(db: Db): Promise<number> {
  return dropSentJobs(db, privacyReplyJob.name);
}

/**
 * The handler of `privacy.reply`: sends the reply as plain text from `from` (LEADS_FROM) to the
 * person, with Reply-To `replyTo` (the Grievance Officer named in the privacy notice, so an answer
 * to the reply reaches a person) and a Message-ID derived from the reference (a resend
 * after a crash is the same message).
 * Skipped when the address is suppressed (the e-mail gate withheld it).
 * @throws JobFailure from `send` (permanent for a 5xx reply, else retried by the queue).
 */
export function sendPrivacyReply(
  send: SendMail,
  { from, replyTo }: { from: string; replyTo: { name: string; address: string } },
): JobHandler<PrivacyReply> {
  return async ({ payload }) => {
    const sent = await send({
      from,
      to: payload.to,
      replyTo,
      subject: privacyConsoleText.mail.subject(payload.reference),
      text: privacyConsoleText.mail.text(payload.reference, payload.text),
      messageId: `<privacy.reply.${payload.reference}@${domainOf(from)}>`,
    });
    if (sent === 'suppressed') return { skipped: 'address suppressed' };
  };
}
