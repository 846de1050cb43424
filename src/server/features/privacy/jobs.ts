import 'server-only';
import { site } from '@/content/site';
import { siteUrl } from '@/lib/seo/site-url';
import type { FeatureJobs } from '../../delivery/job-context';
import { handle, type Registration } from '../../delivery/queue/job';
import { mailBudgetLimits } from '../../platform/people/mail-budget';
import { nudgeQueueWorker } from '../../delivery/queue/runtime';
import { decidePrivacyAsk, privacyAskJob } from './ask-job';
import { honourPrivacyRequest } from './honour';
import { honourJob } from './honour-job';
import { privacyLinkJob, sendPrivacyLink } from './link-job';
import { privacyReplyJob, sendPrivacyReply } from './reply';
import { leadErasedWebhookJob, postLeadErased } from './webhook';

/**
 * The privacy requests' job kinds: with e-mail, the form's requests (`privacy.ask`: what each
 * leads to is decided there), the links (`privacy.link`), their honouring
 * (`privacy.honour`: copies, erasures, acknowledgements, through the features' registrations
 * of personal data, `holders`) and an admin's answer (`privacy.reply`, Reply-To the Grievance Officer of the
 * privacy notice); with webhooks, the `lead.erased` event (`privacy.webhook`).
 */
export const privacyJobs =
  (holders: Parameters<typeof honourPrivacyRequest>[0]['holders']): FeatureJobs =>
  ({ db, env, secret, mail, post }) => {
    const registrations: Registration[] = [];
    if (mail) {
      const { send } = mail;
      const from = { from: mail.from };
      registrations.push(
        handle(
          privacyAskJob,
          decidePrivacyAsk({
            db,
            secret,
            mailBudget: mailBudgetLimits(env),
            holders,
            onQueued: nudgeQueueWorker,
          }),
        ),
        handle(privacyLinkJob, sendPrivacyLink(secret, send, siteUrl(env.SITE_URL), from)),
        handle(
          honourJob,
          honourPrivacyRequest({
            db,
            secret,
            send,
            from,
            webhookUrls: env.WEBHOOK_URLS,
            holders,
          }),
          { retry: { baseDelayMs: 5_000, maxDelayMs: 300_000 } },
        ),
        handle(
          privacyReplyJob,
          sendPrivacyReply(send, {
            from: mail.from,
            replyTo: { name: site.grievanceOfficer.name, address: site.grievanceOfficer.email },
          }),
        ),
      );
    }
    if (post)
      registrations.push(handle(leadErasedWebhookJob, postLeadErased(post), { concurrency: 4 }));
    return registrations;
  };
