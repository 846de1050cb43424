import 'server-only';
import { getSiteSecret } from '../platform/security/site-secret';
import type { Database } from '../platform/db';
import { createSmtpSender } from '../delivery/email/transport';
import { withSuppressionGate } from '../delivery/email/suppression-gate';
import type { FeatureJobs, JobContext } from '../delivery/job-context';
import type { SiteEnv } from './env';
import { log } from '../platform/log';
import type { Registration } from '../delivery/queue/job';
import { createWebhookPoster } from '../delivery/webhooks/sender';
import { consoleJobs } from '../features/console';
import { contactJobs } from '../features/contact';
import { demoJobs } from '../features/demos';
import { privacyJobs } from '../features/privacy';
import { personalDataOf } from './personal-data';

/**
 * Which job kinds this process runs, and with which handler: each feature registers its own
 * kinds (its `jobs.ts`) for the channels the configuration turns on, and this composes them:
 * - `SMTP_URL` and `LEADS_TO` turn on e-mail: the privacy requests' links, honouring and replies,
 *   the provider's e-mail of each enquiry, the console's daily spam digest and, with
 *   `DEMO_HOSTS`, the demo mails;
 * - `WEBHOOK_URLS` and `WEBHOOK_SECRET` turn on the `enquiry.created`, `demo.*` and `lead.erased`
 *   events.
 * Every e-mail passes the suppression gate (withSuppressionGate): an erased or withdrawn address
 * gets nothing, whichever feature queued it.
 * Jobs of an unconfigured kind wait as pending until it is configured and the site restarted;
 * that is logged once, here.
 */
export function jobHandlers(database: Database, env: SiteEnv): Registration[] {
  const context: JobContext<SiteEnv> = {
    db: database.db,
    env,
    secret: () => getSiteSecret(database.db, env.FORM_SECRET),
  };
  if (env.SMTP_URL && env.LEADS_TO)
    context.mail = {
      send: withSuppressionGate(createSmtpSender(env.SMTP_URL), {
        db: database.db,
        secret: context.secret,
      }),
      from: env.LEADS_FROM,
      leadsTo: env.LEADS_TO,
    };
  else
    log.warn(
      { event: 'email.disabled' },
      'SMTP_URL is not set: enquiries are stored but not e-mailed',
    );
  if (env.WEBHOOK_SECRET && env.WEBHOOK_URLS.length > 0) {
    context.post = createWebhookPoster(env.WEBHOOK_SECRET);
    log.info({ event: 'webhooks.enabled', endpoints: env.WEBHOOK_URLS.length });
  }
  const features: FeatureJobs<SiteEnv>[] = [
    privacyJobs(personalDataOf(env)),
    contactJobs,
    consoleJobs,
    demoJobs,
  ];
  return features.flatMap((jobs) => jobs(context));
}
