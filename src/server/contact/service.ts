import 'server-only';
import type { ContactFormState } from '@/lib/contact-schema';
import { getDatabase } from '../db';
import { getEnv } from '../env';
import { clientAddress } from '../http/client-address';
import { errorFacts, log } from '../log';
import { nudgeOutboxWorker } from '../outbox/runtime';
import { getSiteSecret } from './secret';
import { messages, readValues, submitEnquiry } from './submit';
import { issueFormToken } from './token';

/**
 * Issues a fresh form token for the contact page, or `null` when the database (which holds the
 * generated secret) is unavailable; the page then shows the form disabled with a notice.
 */
export async function issueContactToken(): Promise<string | null> {
  try {
    const env = getEnv();
    const { db } = await getDatabase();
    return issueFormToken(await getSiteSecret(db, env.FORM_SECRET));
  } catch (error) {
    log.error({ event: 'contact.token_failed', error: errorFacts(error) });
    return null;
  }
}

/**
 * Submits the contact form with the site's configuration, for the server action: `headers` are
 * the request's. Never throws.
 */
export async function submitContactForm(formData: FormData, headers: Headers): Promise<ContactFormState> {
  try {
    const env = getEnv();
    const { db } = await getDatabase();
    return await submitEnquiry(
      formData,
      {
        origin: headers.get('origin'),
        host: headers.get('x-forwarded-host') ?? headers.get('host'),
        clientAddress: clientAddress(headers, env.TRUST_PROXY),
      },
      {
        db,
        secret: await getSiteSecret(db, env.FORM_SECRET),
        rateLimit: { max: env.RATE_LIMIT_MAX, windowMs: env.RATE_LIMIT_WINDOW_MINUTES * 60_000 },
        allowedOrigins: env.SITE_URL ? [new URL(env.SITE_URL).origin] : [],
        onStored: nudgeOutboxWorker,
      },
    );
  } catch (error) {
    log.error({ event: 'enquiry.store_failed', error: errorFacts(error) });
    return { status: 'invalid', message: messages.unavailable, errors: {}, values: readValues(formData) };
  }
}
