import {
  contactFields,
  formTokenField,
  honeypotField,
  type ContactValues,
} from '@/lib/contact-schema';
import type { Db } from '@/server/platform/db/client';
import type { SubmissionDeps, SubmissionRequest } from '@/server/features/contact/submit';
import { issueFormToken } from '@/server/platform/security/form-token';
import {
  enquiryEmailJob,
  enquiryWebhookJob,
  postEnquiryWebhook,
  sendEnquiryEmail,
} from '@/server/features/contact/deliveries';
import { demoWebhookJob, postDemoEvent } from '@/server/features/demos/webhook-events';
import { createSmtpSender } from '@/server/delivery/email/transport';
import { handle, type Registration } from '@/server/delivery/queue/job';
import { createWorker, type WorkerOptions } from '@/server/delivery/queue/worker';
import { createWebhookPoster } from '@/server/delivery/webhooks/sender';
import { TEST_SECRET } from './form-token';

export { TEST_SECRET };
export const LEADS_TO = 'leads@nirmaya.example';
export const LEADS_FROM = 'Nirmaya website <no-reply@nirmaya.example>';

/** A valid enquiry. */
export const validValues: ContactValues = {
  firstName: 'Asha',
  lastName: 'Rao',
  email: 'asha.rao@hospital.example',
  organization: 'City General Hospital',
  subject: 'Laboratory module',
  message: 'We would like to know more about the laboratory integration.\nThank you.',
};

/** A token issued 10 s before `now` (old enough, not expired). */
export function freshToken(now = Date.now()): string {
  return issueFormToken(TEST_SECRET, now - 10_000);
}

/** Form data as the browser posts it: every field, the empty honeypot and a token. */
export function formData(
  values: Partial<ContactValues> = {},
  extra: { token?: string | null; honeypot?: string | null } = {},
): FormData {
  const data = new FormData();
  const all = { ...validValues, ...values };
  for (const field of contactFields) data.set(field, all[field]);
  if (extra.honeypot !== null) data.set(honeypotField, extra.honeypot ?? '');
  if (extra.token !== null) data.set(formTokenField, extra.token ?? freshToken());
  return data;
}

let clients = 0;
/** A same-site request from a client address no other test uses (so rate limits do not mix). */
export function request(
  address = `10.0.${Math.floor(++clients / 250)}.${clients % 250}`,
): SubmissionRequest {
  return { origin: 'http://localhost:3000', host: 'localhost:3000', clientAddress: address };
}

/** Submission dependencies for `db`: test secret, 5 per 10 min, 60 quarantined per hour. */
export function deps(db: Db, overrides: Partial<SubmissionDeps> = {}): SubmissionDeps {
  return {
    db,
    secret: TEST_SECRET,
    rateLimit: { max: 5, windowMs: 600_000 },
    spamMaxPerHour: 60,
    ...overrides,
  };
}

/** Millisecond backoff for tests: 20 ms doubling to at most 100 ms. */
export const fastRetry = { retry: { baseDelayMs: 20, maxDelayMs: 100 } };

/**
 * A queue worker on `db` with millisecond backoff for tests: the enquiry e-mail to `smtpUrl` (when
 * given), the enquiry and demo webhooks signed with `webhook.secret` (when given; attempt timeout
 * `webhook.timeoutMs`), and the `extra` registrations (e.g. demo e-mails); `options` as the site's.
 */
export function testWorker(
  db: Db,
  smtpUrl?: string,
  webhook?: { secret: string; timeoutMs?: number },
  extra: Registration[] = [],
  options: WorkerOptions = {},
) {
  const registrations: Registration[] = [...extra];
  if (smtpUrl)
    registrations.push(
      handle(
        enquiryEmailJob,
        sendEnquiryEmail(db, createSmtpSender(smtpUrl), { from: LEADS_FROM, to: LEADS_TO }),
        fastRetry,
      ),
    );
  if (webhook) {
    const post = createWebhookPoster(webhook.secret, { timeoutMs: webhook.timeoutMs });
    registrations.push(
      handle(enquiryWebhookJob, postEnquiryWebhook(db, post), fastRetry),
      handle(demoWebhookJob, postDemoEvent(post), fastRetry),
    );
  }
  return createWorker(db, registrations, { pollMs: 50, ...options });
}

/** Waits until `check` holds, polling every 25 ms, for at most `timeoutMs`. */
export async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('Condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
