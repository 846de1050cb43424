import 'server-only';
import { siteUrl } from '@/lib/seo/site-url';
import type { FeatureJobs } from '../../delivery/job-context';
import { handle } from '../../delivery/queue/job';
import { sendSpamDigest, spamDigestJob } from './spam-digest';

/** The console's job kind: the daily spam digest to its admins (`console.spam-digest`, with e-mail). */
export const consoleJobs: FeatureJobs = ({ db, env, mail }) =>
  mail
    ? [
        handle(
          spamDigestJob,
          sendSpamDigest(db, mail.send, {
            from: mail.from,
            spamPageUrl: new URL('admin/spam', siteUrl(env.SITE_URL)).href,
          }),
        ),
      ]
    : [];
