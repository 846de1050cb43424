import 'server-only';
import {
  contactFields,
  contactSchema,
  fieldErrors,
  formTokenField,
  honeypotField,
  type ContactFormState,
  type ContactValues,
} from '@/lib/contact-schema';
import { readEnquiryContext } from '@/lib/enquiry-context';
import { site } from '@/content/site';
import type { Db } from '../db';
import type { DeliveryTargets } from '../outbox/enqueue';
import { hashClientAddress } from '../http/client-address';
import { errorFacts, log } from '../log';
import type { RateLimit } from './rate-limit';
import { newReference } from './reference';
import { storeEnquiry } from './store';
import { issueFormToken, verifyFormToken } from './token';

/** Facts about the HTTP request that carried the form. */
export type SubmissionRequest = {
  /** The `Origin` header (null when absent). */
  origin: string | null;
  /** The host the visitor addressed (`X-Forwarded-Host` or `Host`). */
  host: string | null;
  /** Client address (see `clientAddress`); only its salted hash is kept. */
  clientAddress: string;
};

/** What the submission needs from the server: database, secret, limits, and a clock. */
export type SubmissionDeps = {
  db: Db;
  secret: string;
  rateLimit: RateLimit;
  /** Origins accepted besides the request's own host, e.g. `SITE_URL`'s. */
  allowedOrigins?: string[];
  /** Called after an enquiry is stored, to wake the outbox worker. */
  onStored?: () => void;
  /** Webhook endpoints each lead is queued for besides the e-mail (issue 12); default none. */
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
 * origin check, honeypot, signed token, schema, rate limit, then the lead and its notification
 * job in one transaction. Never throws: every outcome is a `ContactFormState`.
 * Bots (honeypot filled; token missing, forged or posted too fast) get the same answer as a
 * visitor, with a made-up reference, and nothing is stored or sent.
 */
export async function submitEnquiry(
  formData: FormData,
  request: SubmissionRequest,
  deps: SubmissionDeps,
): Promise<ContactFormState> {
  const now = deps.now?.() ?? new Date();
  const values = readValues(formData);

  if (!isSameSite(request, deps.allowedOrigins ?? [])) return reject('origin', values, messages.origin);

  const honeypot = formData.get(honeypotField);
  if (typeof honeypot !== 'string' || honeypot !== '') return pretend('honeypot');

  const token = verifyFormToken(formData.get(formTokenField), deps.secret, now.getTime());
  if (!token.ok && token.reason !== 'expired') return pretend(token.reason);

  const parsed = contactSchema.safeParse(values);
  if (!token.ok || !parsed.success) {
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    log.info({ event: 'enquiry.rejected', reason: token.ok ? 'invalid' : 'expired', fields: Object.keys(errors) });
    return {
      status: 'invalid',
      message: token.ok ? messages.invalid : messages.expired,
      errors,
      values,
      ...(token.ok ? {} : { token: issueFormToken(deps.secret, now.getTime()) }),
    };
  }

  try {
    const result = await storeEnquiry(deps.db, { ...parsed.data, ...readEnquiryContext(formData) }, {
      submissionId: token.nonce,
      clientHash: hashClientAddress(request.clientAddress, deps.secret),
      rateLimit: deps.rateLimit,
      now,
      deliveries: deps.deliveries ?? { webhookUrls: [] },
    });
    if (result.outcome === 'rate-limited') return reject('rate-limited', values, messages.rateLimited);
    log.info({ event: 'enquiry.accepted', reference: result.reference, leadId: result.leadId, duplicate: result.outcome === 'duplicate' });
    if (result.outcome === 'stored') deps.onStored?.();
    return { status: 'accepted', message: messages.accepted, reference: result.reference };
  } catch (error) {
    log.error({ event: 'enquiry.store_failed', error: errorFacts(error) });
    return { status: 'invalid', message: messages.unavailable, errors: {}, values };
  }
}

/** Every field as the string the visitor typed ('' when absent or not text). */
export function readValues(formData: FormData): ContactValues {
  const values = {} as ContactValues;
  for (const field of contactFields) {
    const value = formData.get(field);
    values[field] = typeof value === 'string' ? value : '';
  }
  return values;
}

/** Cross-site posts are refused: `Origin` must be present and name this site. */
function isSameSite(request: SubmissionRequest, allowedOrigins: string[]): boolean {
  if (!request.origin || request.origin === 'null') return false;
  let origin: URL;
  try {
    origin = new URL(request.origin);
  } catch {
    return false;
  }
  if (request.host && origin.host === request.host) return true;
  return allowedOrigins.some((allowed) => allowed === origin.origin);
}

function reject(reason: string, values: ContactValues, message: string): ContactFormState {
  log.info({ event: 'enquiry.rejected', reason });
  return { status: 'invalid', message, errors: {}, values };
}

/** The answer a bot gets: indistinguishable from a real acceptance, but nothing happened. */
function pretend(reason: string): ContactFormState {
  log.info({ event: 'enquiry.rejected', reason, bot: true });
  return { status: 'accepted', message: messages.accepted, reference: newReference() };
}
