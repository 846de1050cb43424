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
import { hashClientGroup } from '../../platform/http/client-group';
import { isSameSite, type OriginFacts } from '../../platform/http/same-site';
import { log } from '../../platform/log';
import { enqueue } from '../../delivery/queue/enqueue';
import { addressKeys } from '../../platform/people/address-hash';
import {
  admitUnprovenMail,
  isSiteBusy,
  type MailBudgetLimits,
} from '../../platform/people/mail-budget';
import { consumeRateLimit, type RateLimit } from '../../platform/rate-limit';
import { isSuppressed, isSuppressedExactly } from '../../platform/people/suppression';
import { botCheck, postedFormToken } from '../../platform/security/bot-signal';
import { issueFormToken } from '../../platform/security/form-token';
import { joinOpenGrievance } from './grievances';
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
  /** The budget of e-mails to unproven addresses (UNPROVEN_MAIL_PER_ADDRESS, _PER_HOUR). */
  mailBudget: MailBudgetLimits;
  /** Origins accepted besides the request's own host (`SITE_URL`'s). */
  allowedOrigins: readonly string[];
  /** Who holds personal data: a link goes only to an address something is held for. */
  holders: readonly PersonalDataHolder[];
  /** Called after a link is queued, to wake the queue worker. */
  onQueued?: () => void;
  now?: () => Date;
};

/** Key prefix of the privacy form's counters in `rate_limits` (apart from the contact form's). */
const RATE_LIMIT_PREFIX = 'privacy:';

/**
 * Handles one post of the privacy-request form: same-site check, the form token and the schema
 * (errors with what was typed; an expired token gets a fresh one), the bot signals the contact
 * form checks (honeypot, token missing, forged or too young without a proof of work: nothing is
 * sent), the client's rate limit and one request per form token, then, in one transaction with
 * the counts: a suppressed inbox (any spelling, isSuppressed) gets nothing but the `resume` (hear
 * from us again) link, which goes only to the spelling that asked to be suppressed; a grievance from an address with an open one joins it (no
 * mail); otherwise, when the site holds data for the address (`deps.holders`), the request is a
 * grievance (DPDP Act s.13: anyone may complain) or a `resume`, the link e-mail (`privacy.link`)
 * is queued if the address's mail budget admits it (admitUnprovenMail: per inbox and per client
 * group, grievance links apart; delayed, never dropped, when the site is busy and the post came
 * without its proof of work). Every valid request gets the same answer (`sentDelayed` for every
 * post without proof of work while the site is busy, isSiteBusy), so the page never tells whether an address is known, suppressed, has an open
 * grievance or was mailed enough. Never throws but on database errors.
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
  const now = deps.now?.() ?? new Date();
  const form = postedFormToken(formData, deps.secret, now.getTime());
  const expired = !form.ok && form.reason === 'expired';
  const parsed = privacyRequestSchema.safeParse(values);
  if (expired || !parsed.success)
    return {
      status: 'invalid',
      message: expired ? privacyRequestTexts.formExpired : privacyRequestTexts.invalid,
      errors: parsed.success ? {} : privacyFieldErrors(parsed.error),
      values,
      ...(expired ? { token: issueFormToken(deps.secret, now.getTime()) } : {}),
    };
  const { signal: bot, proofOfWork } = await botCheck(formData, form, deps.secret);
  // Told to every post alike (a bot too), whatever the address: it depends on the site's load.
  const busy = !proofOfWork && (await isSiteBusy(deps.db, now, deps.mailBudget));
  const sent = {
    status: 'sent' as const,
    message: busy ? privacyRequestTexts.sentDelayed : privacyRequestTexts.sent,
  };
  if (bot) {
    log.info({ event: 'privacy.asked', kind: parsed.data.kind, outcome: 'bot', reason: bot });
    return sent;
  }
  const key = `${RATE_LIMIT_PREFIX}${hashClientAddress(request.clientAddress, deps.secret)}`;
  const queued = await deps.db.transaction(async (tx) => {
    if (!(await consumeRateLimit(tx, key, deps.rateLimit, now))) return 'rate-limited' as const;
    // One form (its token's nonce, and the proof of work bound to it) sends one request: counted
    // in a window that starts when the token was issued, so it never rolls over while it is valid.
    if (form.ok) {
      const issued = new Date(now.getTime() - form.ageMs);
      const once = { max: 1, windowMs: 1 };
      if (!(await consumeRateLimit(tx, `${RATE_LIMIT_PREFIX}form:${form.nonce}`, once, issued)))
        return 'form-used' as const;
    }
    const { kind, email, details } = parsed.data;
    const keys = addressKeys(email, deps.secret);
    const emailHash = keys.exact;
    // A suppressed inbox (any spelling of it) is sent nothing but the link to hear from us again,
    // and that only to the very spelling that asked to be suppressed: only it can lift it.
    const applies =
      kind === 'resume'
        ? await isSuppressedExactly(tx, emailHash)
        : !(await isSuppressed(tx, keys));
    if (!applies) return 'not-applicable' as const;
    if (kind !== 'grievance' && kind !== 'resume' && !(await holdsDataFor(tx, deps.holders, email)))
      return 'unknown' as const;
    if (kind === 'grievance') {
      const joined = await joinOpenGrievance(tx, { emailHash, text: details, by: 'form', now });
      if (joined) return 'joined' as const;
    }
    const budget = await admitUnprovenMail(
      tx,
      {
        emailHash: keys.mailbox,
        kind: privacyLinkJob.name,
        bucket: kind === 'grievance' ? 'grievance' : 'proof',
        requester: { group: hashClientGroup(request.clientAddress, deps.secret), proofOfWork },
        now,
      },
      deps.mailBudget,
    );
    if (budget.verdict !== 'send' && budget.verdict !== 'delay') return budget.verdict;
    const { token, nonce } = issuePrivacyLink(parsed.data, deps.secret, now.getTime());
    await enqueue(
      tx,
      privacyLinkJob,
      { token },
      {
        dedupeKey: `privacy.link:${nonce}`,
        owner: linkOwner(nonce),
        ...(budget.verdict === 'delay' && { notBefore: budget.sendAt }),
      },
    );
    return budget.verdict === 'delay' ? ('delayed' as const) : ('queued' as const);
  });
  log.info({ event: 'privacy.asked', kind: parsed.data.kind, outcome: queued });
  if (queued === 'rate-limited') return refuse(privacyRequestTexts.rateLimited);
  if (queued === 'queued') deps.onQueued?.();
  return sent;
}
