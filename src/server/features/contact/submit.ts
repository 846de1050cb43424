import 'server-only';
import { randomUUID } from 'node:crypto';
import { readValues } from '@/lib/contact-fields';
import {
  contactSchema,
  fieldErrors,
  type ContactFormState,
  type ContactValues,
} from '@/lib/contact-schema';
import { readEnquiryContext } from '@/lib/enquiry-context';
import { privacyNotice } from '@/content/privacy';
import { site } from '@/content/site';
import type { Db } from '../../platform/db';
import type { DeliveryTargets } from './deliveries';
import { hashClientAddress } from '../../platform/http/client-address';
import { isSameSite } from '../../platform/http/same-site';
import { addressKeys } from '../../platform/people/address-hash';
import { errorFacts, log } from '../../platform/log';
import { countEnquiry } from '../../platform/metrics';
import { botCheck, postedFormToken } from '../../platform/security/bot-signal';
import type { RateLimit } from '../../platform/rate-limit';
import { newReference } from '../../platform/reference';
import { storeEnquiry } from './store';
import { issueFormToken } from '../../platform/security/form-token';

/** Facts about the HTTP request that carried the form. */
export type SubmissionRequest = {
  /** The `Origin` header (null when absent). */
  origin: string | null;
  /** The host the visitor addressed (addressedHost: a trusted edge's forwarded host, else Host). */
  host: string | null;
  /** Client address (see `clientAddress`); only its salted hash is kept. */
  clientAddress: string;
};

/** What the submission needs from the server: database, secret, limits, and a clock. */
export type SubmissionDeps = {
  db: Db;
  secret: string;
  rateLimit: RateLimit;
  /** Quarantined enquiries stored per hour at most, across all clients (SPAM_MAX_PER_HOUR). */
  spamMaxPerHour: number;
  /** Origins accepted besides the request's own host, e.g. `SITE_URL`'s. */
  allowedOrigins?: string[];
  /** Called after an enquiry is stored, to wake the queue worker. */
  onStored?: () => void;
  /** Webhook endpoints each lead is queued for besides the e-mail; default none. */
  deliveries?: DeliveryTargets;
  now?: () => Date;
};

export const messages = {
  accepted: 'Thank you. We have received your enquiry.',
  invalid: 'Please correct the fields marked below and submit again.',
  expired: 'This form was open for a long time. Please check your details and press Submit again.',
  origin: 'This form can only be sent from our website. Please reload the page and try again.',
  rateLimited: `You have sent several enquiries in a short time. Please try again in a few minutes, or write to ${site.email}.`,
  unavailable: `We could not save your enquiry just now. Please try again in a minute, or write to ${site.email}.`,
} as const;

/**
 * Handles one contact-form submission end to end (the server action is a thin wrapper around it):
 * origin check, schema (field errors come before any bot verdict), token expiry, bot signals, rate
 * limit, then the enquiry and its notification job in one transaction. Never throws: every
 * outcome is a `ContactFormState`.
 * A submission that trips a bot signal (botSignal, src/server/platform/security/bot-signal.ts) is quarantined, not discarded:
 * stored as spam with its reason, not e-mailed, answered like any other (with its
 * reference), so a bot does not learn what tripped it and an operator can release a human.
 */
export async function submitEnquiry(
  formData: FormData,
  request: SubmissionRequest,
  deps: SubmissionDeps,
): Promise<ContactFormState> {
  const now = deps.now?.() ?? new Date();
  const values = readValues(formData);

  if (!isSameSite(request, deps.allowedOrigins ?? []))
    return reject('origin', values, messages.origin);

  const token = postedFormToken(formData, deps.secret, now.getTime());
  const parsed = contactSchema.safeParse(values);
  const expired = !token.ok && token.reason === 'expired';
  if (expired || !parsed.success) {
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    countEnquiry('rejected', expired ? 'expired' : 'invalid');
    log.info({
      event: 'enquiry.rejected',
      reason: expired ? 'expired' : 'invalid',
      fields: Object.keys(errors),
    });
    return {
      status: 'invalid',
      message: expired ? messages.expired : messages.invalid,
      errors,
      values,
      ...(expired ? { token: issueFormToken(deps.secret, now.getTime()) } : {}),
    };
  }

  const { signal: spamReason, proofOfWork } = await botCheck(formData, token, deps.secret);
  try {
    const result = await storeEnquiry(
      deps.db,
      {
        ...parsed.data,
        ...readEnquiryContext(formData),
        noticeVersion: privacyNotice.version,
        proofOfWork,
      },
      {
        submissionId: token.ok ? token.nonce : randomUUID(),
        clientHash: hashClientAddress(request.clientAddress, deps.secret),
        emailKeys: addressKeys(parsed.data.email, deps.secret),
        rateLimit: deps.rateLimit,
        now,
        deliveries: deps.deliveries ?? { webhookUrls: [] },
        ...(spamReason
          ? { quarantine: { reason: spamReason, maxPerHour: deps.spamMaxPerHour } }
          : {}),
      },
    );
    switch (result.outcome) {
      case 'rate-limited':
        return reject('rate-limited', values, messages.rateLimited);
      case 'dropped':
        // Past the hourly ceiling: only counted here, so a flood cannot fill the disk.
        countEnquiry('dropped', spamReason ?? '');
        log.warn({
          event: 'enquiry.quarantine_full',
          reason: spamReason,
          overflow: result.overflow,
        });
        return { status: 'accepted', message: messages.accepted, reference: newReference() };
      case 'quarantined':
        countEnquiry('quarantined', spamReason ?? '');
        log.info({
          event: 'enquiry.quarantined',
          reason: spamReason,
          reference: result.reference,
          leadId: result.leadId,
        });
        return { status: 'accepted', message: messages.accepted, reference: result.reference };
      default:
        countEnquiry(result.outcome === 'stored' ? 'accepted' : 'duplicate');
        log.info({
          event: 'enquiry.accepted',
          reference: result.reference,
          leadId: result.leadId,
          duplicate: result.outcome === 'duplicate',
        });
        if (result.outcome === 'stored') deps.onStored?.();
        return { status: 'accepted', message: messages.accepted, reference: result.reference };
    }
  } catch (error) {
    countEnquiry('unavailable');
    log.error({ event: 'enquiry.store_failed', error: errorFacts(error) });
    return { status: 'invalid', message: messages.unavailable, errors: {}, values };
  }
}

function reject(reason: string, values: ContactValues, message: string): ContactFormState {
  countEnquiry('rejected', reason);
  log.info({ event: 'enquiry.rejected', reason });
  return { status: 'invalid', message, errors: {}, values };
}
