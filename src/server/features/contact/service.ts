import 'server-only';
import { readValues } from '@/lib/contact-fields';
import type { ContactFormState } from '@/lib/contact-schema';
import { refererPath } from '@/lib/enquiry-context';
import { emptySource, sourceOfLanding, type VisitSource } from '@/lib/visit-source';
import { getEnv } from '../../platform/env';
import { visitorFormAction } from '../../platform/http/form-post';
import { addressedHost } from '../../platform/http/same-site';
import { errorFacts, log } from '../../platform/log';
import { nudgeQueueWorker } from '../../delivery/queue/runtime';
import { createFormChallenge } from '../../platform/security/altcha';
import { getRuntime } from '../../platform/runtime';
import { messages, submitEnquiry } from './submit';
import { issueFormToken, verifyFormToken } from '../../platform/security/form-token';

/**
 * What the contact page needs from the server: a fresh form token (`null` when the database, which
 * holds the generated secret, is unavailable: the page then shows the form disabled with a notice)
 * and the retention period in days for the privacy notice.
 */
export async function contactPageSettings(): Promise<{
  token: string | null;
  retentionDays: number;
}> {
  const env = getEnv();
  try {
    const { secret } = await getRuntime();
    return {
      token: issueFormToken(secret),
      retentionDays: env.LEADS_RETENTION_DAYS,
    };
  } catch (error) {
    log.error({ event: 'contact.token_failed', error: errorFacts(error) });
    return { token: null, retentionDays: env.LEADS_RETENTION_DAYS };
  }
}

/**
 * The page on this site the visitor opened the contact page from: the path of the request's
 * `Referer` when it names this host (addressedHost) or `SITE_URL`'s, else null.
 */
export function sourcePageOf(headers: Headers): string | null {
  const { SITE_URL: siteUrl, TRUST_PROXY } = getEnv();
  return refererPath(headers.get('referer'), [
    addressedHost(headers, TRUST_PROXY),
    siteUrl ? new URL(siteUrl).host : null,
  ]);
}

/**
 * What the contact page itself knows of the visit's source, for a visitor without JavaScript
 * (the beacon's tab source replaces it when scripts run): this page as the first page, the host
 * of a `Referer` from another site, and the UTM tags of its own query. Nothing when the visitor
 * sends Do-Not-Track (`DNT: 1`) or Global Privacy Control (`Sec-GPC: 1`).
 */
export function visitSourceOf(
  headers: Headers,
  query: Record<string, string | string[] | undefined>,
): VisitSource {
  if (headers.get('dnt') === '1' || headers.get('sec-gpc') === '1') return emptySource;
  const { SITE_URL: siteUrl, TRUST_PROXY } = getEnv();
  const page = new URL('/contact-us', 'http://site.invalid');
  for (const tag of ['utm_source', 'utm_medium', 'utm_campaign']) {
    const value = query[tag];
    if (typeof value === 'string') page.searchParams.set(tag, value);
  }
  return sourceOfLanding(page, headers.get('referer'), [
    addressedHost(headers, TRUST_PROXY),
    siteUrl ? new URL(siteUrl).host : null,
  ]);
}

/**
 * Submits the contact form with the site's configuration, for the server action: `headers` are
 * the request's. Never throws: a database failure is the `unavailable` message with the values kept.
 */
export function submitContactForm(formData: FormData, headers: Headers): Promise<ContactFormState> {
  return visitorFormAction<ContactFormState>(
    headers,
    {
      failed: 'enquiry.store_failed',
      unavailable: () => ({
        status: 'invalid',
        message: messages.unavailable,
        errors: {},
        values: readValues(formData),
      }),
    },
    async ({ request, env, rateLimit, allowedOrigins }) => {
      const { db, secret } = await getRuntime();
      return submitEnquiry(formData, request, {
        db,
        secret,
        rateLimit,
        spamMaxPerHour: env.SPAM_MAX_PER_HOUR,
        allowedOrigins,
        onStored: nudgeQueueWorker,
        deliveries: { webhookUrls: env.WEBHOOK_URLS },
      });
    },
  );
}

/**
 * A proof-of-work challenge for the form whose token is `formToken` (the ALTCHA widget's challenge
 * request). Resolves to null when the token is not one this site signed (or expired),
 * so nobody gets challenges for forms that do not exist. Database errors propagate.
 */
export async function contactChallenge(formToken: string | null) {
  const { secret } = await getRuntime();
  const token = verifyFormToken(formToken, secret, Date.now(), 0);
  return token.ok ? createFormChallenge(secret, token.nonce) : null;
}
