import 'server-only';
import { siteUrl } from '@/lib/seo/site-url';
import type { FeatureJobs } from '../../delivery/job-context';
import { handle, type Registration } from '../../delivery/queue/job';
import { demoMailJob, sendDemoMail } from './mails/mail-jobs';
import type { DemoSiteEnv } from './env';
import { isBookingOn } from './rules';
import { confirmPageUrl, issueConfirmToken, issueManageToken, managePageUrl } from './tokens';
import { demoWebhookJob, postDemoEvent } from './webhook-events';

/**
 * Demo booking's job kinds: with e-mail and `DEMO_HOSTS`, the invitations, reminders and
 * cancellations (`demo.mail`; the visitor's carry the manage link on `SITE_URL`, and with
 * `DEMO_CONFIRM_EMAIL` the requests to confirm a held booking carry its confirm link); with
 * webhooks, the `demo.*` events (`demo.webhook`).
 */
export const demoJobs: FeatureJobs<DemoSiteEnv> = ({ db, env, secret, mail, post }) => {
  const registrations: Registration[] = [];
  if (mail && isBookingOn(env)) {
    const links = {
      manage: async (bookingId: string) =>
        managePageUrl(siteUrl(env.SITE_URL), issueManageToken(bookingId, await secret())),
      confirm: async (booking: { id: string }, issuedAt: number) =>
        confirmPageUrl(
          siteUrl(env.SITE_URL),
          issueConfirmToken(booking.id, await secret(), issuedAt),
        ),
    };
    registrations.push(
      handle(
        demoMailJob,
        sendDemoMail(
          db,
          mail.send,
          { from: mail.from, copyTo: mail.leadsTo, timeZone: env.DEMO_TIMEZONE },
          env.DEMO_HOSTS,
          links,
        ),
      ),
    );
  }
  if (post) registrations.push(handle(demoWebhookJob, postDemoEvent(post), { concurrency: 4 }));
  return registrations;
};
