import 'server-only';
import { contactValuesOf, type ContactField } from '@/lib/contact-fields';
import type { VisitSource } from '@/lib/visit-source';
import type { leads } from './schema';

/** The stored lead a webhook event is built from. */
export type LeadForWebhook = Pick<
  typeof leads.$inferSelect,
  'reference' | 'createdAt' | 'demoRequested' | 'sourcePage' | ContactField | keyof VisitSource
> &
  Partial<Pick<typeof leads.$inferSelect, 'suppressed'>>;

/**
 * The body of every webhook request (documented in docs/webhooks.md): the Standard
 * Webhooks envelope (`type`, `timestamp`, `data`) with a schema `version`, raised only on a change
 * that breaks receivers.
 */
export type EnquiryCreatedEvent = {
  type: 'enquiry.created';
  version: 1;
  /** When the enquiry was received (ISO 8601, UTC). */
  timestamp: string;
  data: {
    reference: string;
    receivedAt: string;
    demoRequested: boolean;
    /** Path on this site the visitor came from, e.g. `/solutions`; null when unknown. */
    sourcePage: string | null;
    /**
     * The address was on the suppression list when the enquiry came (its owner erased their data
     * or withdrew consent): the site sends it nothing; do not write to it.
     */
    contactSuppressed: boolean;
    /**
     * The visit's source: its first page on this site, the other site that sent it (host only)
     * and its UTM tags; each null when unknown (docs/webhooks.md).
     */
    source: VisitSource;
    fields: Record<ContactField, string>;
  };
};

/**
 * Builds the `enquiry.created` v1 event of a lead: reference, received time, the form's fields
 * (every field of src/lib/contact-fields.ts, in its order),
 * whether it was a demo request, the page it came from, the visit's source and whether the address
 * is suppressed. Never the client address or its hash.
 */
export function buildEnquiryEvent(lead: LeadForWebhook): EnquiryCreatedEvent {
  const receivedAt = lead.createdAt.toISOString();
  return {
    type: 'enquiry.created',
    version: 1,
    timestamp: receivedAt,
    data: {
      reference: lead.reference,
      receivedAt,
      demoRequested: lead.demoRequested,
      sourcePage: lead.sourcePage,
      contactSuppressed: lead.suppressed ?? false,
      source: {
        landingPage: lead.landingPage,
        referrerHost: lead.referrerHost,
        utmSource: lead.utmSource,
        utmMedium: lead.utmMedium,
        utmCampaign: lead.utmCampaign,
      },
      fields: contactValuesOf(lead),
    },
  };
}
