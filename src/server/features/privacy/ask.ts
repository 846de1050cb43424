import 'server-only';
import { privacyRequestTexts } from '@/content/privacy';
import {
  privacyFieldErrors,
  privacyRequestSchema,
  readPrivacyValues,
  type PrivacyFormState,
} from '@/lib/privacy-request-schema';
import type { Db } from '../../platform/db';
import { hashClientAddress } from '../../platform/http/client-address';
import { isSameSite, type OriginFacts } from '../../platform/http/same-site';
import { log } from '../../platform/log';
import { enqueue } from '../../delivery/queue/enqueue';
import { consumeRateLimit, type RateLimit } from '../../platform/rate-limit';
import { addressHash } from '../../platform/people/address-hash';
import { admitUnprovenMail, type MailBudgetLimits } from '../../platform/people/mail-budget';
import { isSuppressed } from '../../platform/people/suppression';
import { holdsDataFor } from './copy';
import type { PersonalDataHolder } from './personal-data';
import { issuePrivacyLink } from './link-token';
import { linkOwner, privacyLinkJob } from './link-job';

/** What asking for a privacy link needs. */
export type AskDeps = {
  db: Db;
  secret: string;
  /** The contact form's limit (`RATE_LIMIT_MAX` per `RATE_LIMIT_WINDOW_MINUTES`), counted apart. */
  rateLimit: RateLimit;
  /** Origins accepted besides the request's own host (`SITE_URL`'s). */
  allowedOrigins: readonly string[];
  /** Who holds personal data: a link goes only to an address something is held for. */
  holders: readonly PersonalDataHolder[];
  /** The limits of e-mails to unproven addresses (`UNPROVEN_MAIL_*`): every link counts. */
  mailBudget: MailBudgetLimits;
  /** Called after a link is queued, to wake the queue worker. */
  onQueued?: () => void;
  now?: () => Date;
};

/** Key prefix of the privacy form's counters in `rate_limits` (apart from the contact form's). */
const RATE_LIMIT_PREFIX = 'privacy:';

/**
 * Handles one post of the privacy-request form: same-site check, the schema (errors with what was
 * typed), the client's rate limit, then, in one transaction with the count, the link e-mail
 * (`privacy.link`) queued when the request applies to the address: the site holds data for it
 * (`deps.holders`: any enquiry from it, in any case), or it is a grievance (DPDP Act s.13: anyone
 * may complain), or, for `resume` (hear from us again), the address is suppressed (only then is
 * there anything to lift). Each link counts against the address's budget of e-mails to unproven
 * addresses (admitUnprovenMail, kind `privacy.link`); past it nothing is queued. A suppressed
 * address gets only the `resume` link (nothing else is queued; the e-mail gate would withhold it). Every valid request
 * gets the same answer, so the page never tells whether an address is known or suppressed. Never throws but on
 * database errors, answered `unavailable`.
 */
export async function askForPrivacyLink(
  formData: FormData,
  request: OriginFacts & { clientAddress: string },
  deps: AskDeps,
): Promise<PrivacyFormState> {
  const values = readPrivacyValues(formData);
  const refuse = (message: string): PrivacyFormState => ({
    status: 'invalid',
    message,
    errors: {},
    values,
  });
  if (!isSameSite(request, deps.allowedOrigins)) return refuse(privacyRequestTexts.origin);
  const parsed = privacyRequestSchema.safeParse(values);
  if (!parsed.success)
    return {
      status: 'invalid',
      message: privacyRequestTexts.invalid,
      errors: privacyFieldErrors(parsed.error),
      values,
    };
  const now = deps.now?.() ?? new Date();
  const key = `${RATE_LIMIT_PREFIX}${hashClientAddress(request.clientAddress, deps.secret)}`;
  const queued = await deps.db.transaction(async (tx) => {
    if (!(await consumeRateLimit(tx, key, deps.rateLimit, now))) return 'rate-limited' as const;
    const { kind, email } = parsed.data;
    const emailHash = addressHash(email, deps.secret);
    // A suppressed address receives only the link to hear from us again: queue nothing else.
    const suppressed = await isSuppressed(tx, emailHash);
    if (kind === 'resume' ? !suppressed : suppressed) return 'not-applicable' as const;
    if (kind !== 'grievance' && kind !== 'resume' && !(await holdsDataFor(tx, deps.holders, email)))
      return 'unknown' as const;
    const budget = { emailHash, kind: privacyLinkJob.name, now };
    if ((await admitUnprovenMail(tx, budget, deps.mailBudget)) !== 'send')
      return 'over-budget' as const;
    const { token, nonce } = issuePrivacyLink(parsed.data, deps.secret, now.getTime());
    await enqueue(
      tx,
      privacyLinkJob,
      { token },
      { dedupeKey: `privacy.link:${nonce}`, owner: linkOwner(nonce) },
    );
    return 'queued' as const;
  });
  log.info({ event: 'privacy.asked', kind: parsed.data.kind, outcome: queued });
  if (queued === 'rate-limited') return refuse(privacyRequestTexts.rateLimited);
  if (queued === 'queued') deps.onQueued?.();
  return { status: 'sent', message: privacyRequestTexts.sent };
}
