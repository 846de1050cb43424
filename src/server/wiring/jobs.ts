import 'server-only';
import { site } from '@/content/site';
import { siteUrl } from '@/lib/seo/site-url';
import { getSiteSecret } from '../platform/security/site-secret';
import {
  postEnquiryWebhook,
  sendEnquiryEmail,
  enquiryEmailJob,
  enquiryWebhookJob,
} from '../features/contact/deliveries';
import type { Database } from '../platform/db';
import { demoMailJob, sendDemoMail } from '../features/demos/mails/mail-jobs';
import {
  confirmPageUrl,
  issueConfirmToken,
  issueManageToken,
  managePageUrl,
} from '../features/demos/tokens';
import { postDemoEvent, demoWebhookJob } from '../features/demos/webhook-events';
import { createSmtpSender } from '../delivery/email/transport';
import type { Env } from '../platform/env';
import { log } from '../platform/log';
import { handle, type Registration } from '../delivery/queue/job';
import { sendSpamDigest, spamDigestJob } from '../features/console/spam-digest';
import { privacyReplyJob, sendPrivacyReply } from '../features/privacy/reply';
import { createWebhookPoster } from '../delivery/webhooks/sender';
import { addressHash } from '../platform/people/address-hash';
import { honourPrivacyRequest } from '../features/privacy/honour';
import { honourJob } from '../features/privacy/honour-job';
import { privacyLinkJob, sendPrivacyLink } from '../features/privacy/link-job';
import { isSuppressed } from '../platform/people/suppression';
import { leadErasedWebhookJob, postLeadErased } from '../features/privacy/webhook';
import { personalDataOf } from './personal-data';

/**
 * Which job kinds this process runs, and with which handler: the one place where features meet
 * the queue. From the configuration:
 * - `SMTP_URL` and `LEADS_TO`: the privacy requests' links and their honouring (`privacy.link`,
 *   `privacy.honour`: copies, erasures, acknowledgements), the provider's e-mail of each enquiry
 *   (`enquiry.email`), the daily spam digest to the console's admins (`console.spam-digest`), an
 *   admin's answer to a privacy request (`privacy.reply`, Reply-To the Grievance Officer of the
 *   privacy notice) and, with `DEMO_HOSTS`, the demo invitations, reminders and cancellations
 *   (`demo.mail`; the visitor's carry the manage link on `SITE_URL`) and, with
 *   `DEMO_CONFIRM_EMAIL`, the requests to confirm a held booking (its confirm link, also on
 *   `SITE_URL`);
 * - `WEBHOOK_URLS` and `WEBHOOK_SECRET`: the `enquiry.created`, `demo.*` and `lead.erased` events
 *   (`enquiry.webhook`, `demo.webhook`, `privacy.webhook`).
 * Jobs of an unconfigured kind wait as pending until it is configured and the site restarted;
 * that is logged once, here.
 */
export function jobHandlers(database: Database, env: Env): Registration[] {
  const { db } = database;
  const registrations: Registration[] = [];
  const secret = () => getSiteSecret(db, env.FORM_SECRET);
  if (env.SMTP_URL && env.LEADS_TO) {
    const send = createSmtpSender(env.SMTP_URL);
    const from = { from: env.LEADS_FROM };
    registrations.push(
      handle(privacyLinkJob, sendPrivacyLink(secret, send, siteUrl(env.SITE_URL), from)),
      handle(
        honourJob,
        honourPrivacyRequest({
          db,
          secret,
          send,
          from,
          webhookUrls: env.WEBHOOK_URLS,
          holders: personalDataOf(env),
        }),
        { retry: { baseDelayMs: 5_000, maxDelayMs: 300_000 } },
      ),
    );
    registrations.push(
      handle(
        enquiryEmailJob,
        sendEnquiryEmail(db, send, { from: env.LEADS_FROM, to: env.LEADS_TO }),
      ),
    );
    registrations.push(
      handle(
        spamDigestJob,
        sendSpamDigest(db, send, {
          from: env.LEADS_FROM,
          spamPageUrl: new URL('admin/spam', siteUrl(env.SITE_URL)).href,
        }),
      ),
    );
    registrations.push(
      handle(
        privacyReplyJob,
        sendPrivacyReply(send, {
          from: env.LEADS_FROM,
          replyTo: { name: site.grievanceOfficer.name, address: site.grievanceOfficer.email },
        }),
      ),
    );
    if (env.DEMO_HOSTS.length > 0) {
      const links = {
        manage: async (bookingId: string) =>
          managePageUrl(siteUrl(env.SITE_URL), issueManageToken(bookingId, await secret())),
        confirm: async (booking: { id: string; createdAt: Date }) =>
          confirmPageUrl(
            siteUrl(env.SITE_URL),
            issueConfirmToken(booking.id, await secret(), booking.createdAt.getTime()),
          ),
      };
      registrations.push(
        handle(
          demoMailJob,
          sendDemoMail(
            db,
            send,
            { from: env.LEADS_FROM, copyTo: env.LEADS_TO, timeZone: env.DEMO_TIMEZONE },
            env.DEMO_HOSTS,
            links,
            Date.now,
            async (email) => isSuppressed(db, addressHash(email, await secret())),
          ),
        ),
      );
    }
  } else {
    log.warn(
      { event: 'email.disabled' },
      'SMTP_URL is not set: enquiries are stored but not e-mailed',
    );
  }
  if (env.WEBHOOK_SECRET && env.WEBHOOK_URLS.length > 0) {
    const post = createWebhookPoster(env.WEBHOOK_SECRET);
    registrations.push(
      handle(enquiryWebhookJob, postEnquiryWebhook(db, post), { concurrency: 4 }),
      handle(demoWebhookJob, postDemoEvent(post), { concurrency: 4 }),
      handle(leadErasedWebhookJob, postLeadErased(post), { concurrency: 4 }),
    );
    log.info({ event: 'webhooks.enabled', endpoints: env.WEBHOOK_URLS.length });
  }
  return registrations;
}
