import { visitSourceFields, type VisitSource } from '@/lib/visit-source';

/**
 * The visit's source as the contact form's five hidden fields, always all five: what the page itself
 * knew (`source`, from the server: works without JavaScript), each without a value (posted empty)
 * when unknown: the server reads an empty field as unknown, and React's hydration leaves an input
 * without a `value` prop as the beacon filled it. In the browser the visit beacon (src/lib/visit-beacon.ts) puts
 * the tab's source in them (its first page, referring site and UTM tags) unless the visitor has
 * Do-Not-Track or Global Privacy Control on. A server component: nothing of it hydrates.
 */
export function VisitSourceFields({ source }: { source: VisitSource }) {
  return visitSourceFields.map((field) => (
    <input key={field} type="hidden" name={field} value={source[field] ?? undefined} />
  ));
}
