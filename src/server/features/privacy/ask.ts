import 'server-only';
import { privacyRequestTexts } from '@/content/privacy';
import {
  privacyFieldErrors,
  privacyRequestSchema,
  readPrivacyValues,
  type PrivacyFormState,
} from '@/lib/privacy-request-schema';
import { formTokenField } from '@/lib/contact-fields';
import type { Db } from '../../platform/db';
import { hashClientAddress } from '../../platform/http/client-address';
import { hashClientGroup } from '../../platform/http/client-group';
import { isSameSite, type OriginFacts } from '../../platform/http/same-site';
import { log } from '../../platform/log';
import { enqueue } from '../../delivery/queue/enqueue';
import { isSiteBusy, type MailBudgetLimits } from '../../platform/people/mail-budget';
import { consumeRateLimit, type RateLimit } from '../../platform/rate-limit';
import { botCheck, postedFormToken } from '../../platform/security/bot-signal';
import { issueFormToken } from '../../platform/security/form-token';
import { issuePrivacyLink } from './link-token';
import { linkOwner } from './link-job';
import { privacyAskJob } from './ask-job';

/** What asking for a privacy link needs. */
export type AskDeps = {
  db: Db;
  secret: string;
  /** The contact form's limit (`RATE_LIMIT_MAX` per `RATE_LIMIT_WINDOW_MINUTES`), counted apart. */
  rateLimit: RateLimit;
  /** The budget of e-mails to unproven addresses: its site-wide rate says when the site is busy. */
  mailBudget: MailBudgetLimits;
  /** Origins accepted besides the request's own host (`SITE_URL`'s). */
  allowedOrigins: readonly string[];
  /** Called after the request is queued, to wake the queue worker. */
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
 * the counts, one `privacy.ask` job carrying the request's signed link token, the requesting
 * client's group (hashClientGroup) and whether a proof of work came with it, whoever's the address:
 * whether it is known, suppressed, has an open grievance or was mailed enough (the budget per inbox
 * and per client group, grievance links apart) is decided on the queue worker (decidePrivacyAsk),
 * after the answer. So every valid request gets the same answer after the same work and the same
 * writes, and neither the page nor its timing tells anything about the address. The answer
 * depends only on the site's load: while the site is busy (isSiteBusy) a post without its proof of
 * work is told its link waits its turn (`sentDelayed`: the worker then delays that mail, never
 * drops it). A post refused only as too fast (no proof of work, token under its minimum age) gets
 * the form back as typed, asking to press send again. Never throws but on database errors.
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
  // Sent faster than the form's minimum age without a proof of work (no JavaScript, autofill): a
  // person may well have done it, so the form comes back as typed, with the same token (older by
  // now), asking to press send again. Nothing was sent, and the answer never says it was.
  if (bot === 'too-fast' && form.ok)
    return {
      status: 'invalid',
      message: privacyRequestTexts.tooFast,
      errors: {},
      values,
      token: String(formData.get(formTokenField)),
    };
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
    // Every valid post queues the same one job, whoever's the address: what it leads to is
    // decided on the queue worker (decidePrivacyAsk), after this answer.
    const { token, nonce } = issuePrivacyLink(parsed.data, deps.secret, now.getTime());
    await enqueue(
      tx,
      privacyAskJob,
      {
        token,
        at: now.getTime(),
        group: hashClientGroup(request.clientAddress, deps.secret),
        proofOfWork,
      },
      { dedupeKey: `privacy.ask:${nonce}`, owner: linkOwner(nonce) },
    );
    return 'queued' as const;
  });
  if (queued !== 'queued')
    log.info({ event: 'privacy.asked', kind: parsed.data.kind, outcome: queued });
  if (queued === 'rate-limited') return refuse(privacyRequestTexts.rateLimited);
  if (queued === 'queued') deps.onQueued?.();
  return sent;
}
