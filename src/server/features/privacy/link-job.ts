import 'server-only';
import { z } from 'zod';
import type { SendMail } from '../../delivery/email/transport';
import { defineJob, type JobHandler } from '../../delivery/queue/job';
import { confirmUrl, verifyPrivacyLink } from './link-token';
import { buildLinkMail, type PrivacyMailFrom } from './mails';

/**
 * The `privacy.link` job: the e-mail with a request's confirmation link. Its payload is the signed
 * link token (the address in it is encoded, not in clear); its owner `linkOwner(nonce)`, dropped
 * once the link is used.
 */
export const privacyLinkJob = defineJob('privacy.link', z.object({ token: z.string() }));

/** The owner of a link's job, so it can be dropped when the link is used. */
export function linkOwner(nonce: string): string {
  return `privacy-link:${nonce}`;
}

/**
 * Runs `privacy.link` jobs: e-mails the link to the address the token carries, with `send`. A link
 * that expired before it could be sent is skipped (the person asks again). The link of a `resume`
 * request (hear from us again) is the one e-mail a suppressed address receives (audience
 * `resume-link`); any other link to a suppressed address is withheld by the gate and skipped.
 * @throws JobFailure from `send`.
 */
export function sendPrivacyLink(
  secret: () => Promise<string>,
  send: SendMail,
  siteUrl: URL,
  from: PrivacyMailFrom,
): JobHandler<z.infer<typeof privacyLinkJob.payload>> {
  return async ({ payload }) => {
    const link = verifyPrivacyLink(payload.token, await secret());
    if (!link.ok) return { skipped: `link ${link.reason}` };
    const { email, kind, nonce } = link.request;
    const sent = await send(
      buildLinkMail(email, kind, confirmUrl(siteUrl, payload.token), nonce, from),
      { audience: kind === 'resume' ? 'resume-link' : 'visitor' },
    );
    if (sent === 'suppressed') return { skipped: 'address suppressed' };
  };
}
