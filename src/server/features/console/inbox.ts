import 'server-only';
import type { Db } from '../../platform/db';
import {
  countLeads as countStored,
  exportLeadsCsv as exportStored,
  listLeads as listStored,
  type LeadFilter as StoredLeadFilter,
  type LeadSummary,
} from '../contact';
import { hasDemoBooking } from '../demos';
import { auditedRead, type Actor } from '../../platform/audit';

/**
 * The console's inbox: the contact form's stored enquiries (contact/inbox.ts) with the filters
 * that reach across features, here whether a demo was booked (the demos' condition).
 */

/** Which enquiries the inbox shows: contact's filter, and whether a demo was booked. */
export type LeadFilter = Omit<StoredLeadFilter, 'related'> & {
  /** Only enquiries with (true) or without (false) a booked demo, live or cancelled. */
  hasDemo?: boolean;
};

/** The contact form's filter for `filter`, the demo condition built by the demos. */
function stored({ hasDemo, ...filter }: LeadFilter): StoredLeadFilter {
  return { ...filter, related: hasDemo === undefined ? undefined : hasDemoBooking(hasDemo) };
}

/** Enquiries matching `filter`, newest first (contact's listLeads). */
export function listLeads(db: Db, filter: LeadFilter = {}): Promise<LeadSummary[]> {
  return listStored(db, stored(filter));
}

/** How many enquiries match `filter`, its limit and offset aside (contact's countLeads). */
export function countLeads(db: Db, filter: LeadFilter = {}): Promise<number> {
  return countStored(db, stored(filter));
}

/** Every enquiry matching `filter` as CSV (contact's exportLeadsCsv). */
export function exportLeadsCsv(
  db: Db,
  filter: Omit<LeadFilter, 'limit' | 'offset'> = {},
): Promise<string> {
  return exportStored(db, stored(filter));
}

/**
 * One page of the inbox for `actor`: the enquiries matching `filter` (with its limit and offset)
 * and how many match in all, the read written to the audit log (`read`, subject `inbox`,
 * `described`: the search and filter as the operator gave them, and the page) in the same
 * transaction, folded per operator, page and minute.
 */
export function readInbox(
  db: Db,
  actor: Actor,
  filter: LeadFilter,
  described: string,
  now = new Date(),
): Promise<[LeadSummary[], number]> {
  return auditedRead(
    db,
    actor,
    'inbox',
    described,
    (tx) => Promise.all([listLeads(tx, filter), countLeads(tx, filter)]),
    now,
  );
}
