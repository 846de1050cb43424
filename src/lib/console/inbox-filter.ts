/**
 * The inbox's filters as they ride in the URL (`/admin?q=…&delivery=failed&page=2`), shared by the
 * inbox page and `/admin/export.csv`, so an export holds exactly the rows the inbox shows.
 */

/** Search parameters as Next.js hands them to a page. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The inbox's filters, parsed; `undefined` means "any". */
export type InboxFilter = {
  search?: string;
  delivery?: 'delivered' | 'pending' | 'failed';
  hasDemo?: boolean;
  /** Received on or after this day (UTC midnight). */
  from?: Date;
  /** Received on or before this day (the instant is the next UTC midnight, exclusive). */
  to?: Date;
  subject?: string;
};

/** Enquiries per inbox page. */
export const INBOX_PAGE_SIZE = 25;

const first = (value: string | string[] | undefined): string =>
  (Array.isArray(value) ? value[0] : value)?.trim() ?? '';

/** A `YYYY-MM-DD` day as the UTC midnight starting it (plus `days`), or undefined when invalid. */
function day(value: string, days = 0): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const at = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(at) ? new Date(at + days * 86_400_000) : undefined;
}

/** The filters of `params` (unknown or malformed values are ignored, never an error). */
export function parseInboxFilter(params: SearchParams): InboxFilter {
  const delivery = first(params.delivery);
  const demo = first(params.demo);
  return {
    search: first(params.q).slice(0, 200) || undefined,
    delivery:
      delivery === 'delivered' || delivery === 'pending' || delivery === 'failed'
        ? delivery
        : undefined,
    hasDemo: demo === 'yes' ? true : demo === 'no' ? false : undefined,
    from: day(first(params.from)),
    to: day(first(params.to), 1),
    subject: first(params.subject).slice(0, 200) || undefined,
  };
}

/** The 1-based page number of `params` (1 when missing or invalid). */
export function parsePage(params: SearchParams): number {
  const page = Number.parseInt(first(params.page), 10);
  return Number.isFinite(page) && page > 0 ? Math.min(page, 100_000) : 1;
}

/** The query string of the filter's parameters as given (for links that keep them), without `page`. */
export function filterQuery(params: SearchParams, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  for (const key of ['q', 'delivery', 'demo', 'from', 'to', 'subject']) {
    const value = first(params[key]);
    if (value) query.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) query.set(key, value);
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** The filters typed as free text: the audit log records that they were used, not their text. */
const TYPED_FILTERS = ['q', 'subject'] as const;

/** What the audit log records in place of a free-text filter's text. */
export const SEARCHED = '(searched)';

/**
 * A short description of the filter for the audit log, e.g. `q=(searched) delivery=failed`: the
 * search and subject texts (names, addresses a person could be found by) are replaced by
 * SEARCHED, so the log says a search was made and never keeps what was searched past an erasure.
 */
export function describeFilter(params: SearchParams): string {
  const masked: SearchParams = { ...params };
  for (const key of TYPED_FILTERS) if (first(params[key])) masked[key] = SEARCHED;
  const text = filterQuery(masked).slice(1).replaceAll('&', ' ');
  return text ? decodeURIComponent(text.replaceAll('+', ' ')) : 'all';
}
