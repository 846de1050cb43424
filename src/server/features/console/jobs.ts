import 'server-only';
import { siteUrl } from '@/lib/seo/site-url';
import type { FeatureJobs } from '../../delivery/job-context';
import { handle } from '../../delivery/queue/job';
import { authFor } from './auth';
import type { ConsoleEnv } from './env';
import { sendSignInLink, signInJob } from './sign-in';
import { sendSpamDigest, spamDigestJob } from './spam-digest';

/**
 * The console's job kinds: the sign-in links (`console.sign-in`, always registered, so a
 * stranger's request is done like an operator's; retried every 10 to 60 s while the link could
 * still be used) and, with e-mail, the daily spam digest to its admins (`console.spam-digest`).
 */
export const consoleJobs: FeatureJobs<ConsoleEnv> = ({ db, env, mail, secret }) => {
  const origin = siteUrl(env.SITE_URL).origin;
  const signIn = handle(
    signInJob,
    sendSignInLink({
      db,
      auth: () => authFor({ db, env, baseURL: origin }),
      secret,
      send: mail?.send,
      from: env.LEADS_FROM,
      origin,
    }),
    { retry: { baseDelayMs: 10_000, maxDelayMs: 60_000, maxAttempts: 12 } },
  );
  return mail
    ? [
        signIn,
        handle(
          spamDigestJob,
          sendSpamDigest(db, mail.send, {
            from: mail.from,
            spamPageUrl: new URL('admin/spam', siteUrl(env.SITE_URL)).href,
          }),
        ),
      ]
    : [signIn];
};
