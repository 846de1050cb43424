import 'server-only';
import { contactFields, type ContactField } from '@/lib/contact-fields';
import { visitSourceFields } from '@/lib/visit-source';
import { leads, visitSourceColumns } from './schema';

/** The `leads` column of every contact field, keyed by the field's name. */
const contactColumns = Object.fromEntries(contactFields.map((field) => [field, leads[field]])) as {
  [F in ContactField]: (typeof leads)[F];
};

/** The columns of `leads` a person's copy shows of an enquiry (select them, then enquiryAsCopied). */
export const enquiryCopyColumns = {
  reference: leads.reference,
  createdAt: leads.createdAt,
  ...contactColumns,
  sourcePage: leads.sourcePage,
  ...visitSourceColumns,
  demoRequested: leads.demoRequested,
  noticeVersion: leads.noticeVersion,
  verdict: leads.verdict,
};

type CopyRow = {
  [K in keyof typeof enquiryCopyColumns]: (typeof enquiryCopyColumns)[K]['_']['data'] | null;
};

/** One enquiry as a person's copy shows it: every field of the form, its source and verdict. */
export function enquiryAsCopied(row: CopyRow): Record<string, unknown> {
  return {
    reference: row.reference,
    receivedAt: row.createdAt?.toISOString(),
    ...Object.fromEntries(contactFields.map((field) => [field, row[field]])),
    sourcePage: row.sourcePage,
    ...Object.fromEntries(visitSourceFields.map((field) => [field, row[field]])),
    demoRequested: row.demoRequested,
    noticeVersion: row.noticeVersion,
    verdict: row.verdict,
  };
}
