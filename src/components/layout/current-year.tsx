import { CURRENT_YEAR_ATTRIBUTE } from '@/lib/current-year';

/**
 * The current calendar year (spec §2, copyright line). The prerendered HTML carries the year of
 * the server render; the page script writes the visitor's own clock's year into it at `load`
 * (src/lib/current-year.ts), before and without the framework, so a page cached across New Year
 * is never stale for a visitor. A server component: React leaves the text the script wrote.
 *
 * @param renderedYear Year of the server render.
 */
export function CurrentYear({ renderedYear }: { renderedYear: number }) {
  return (
    <span {...{ [CURRENT_YEAR_ATTRIBUTE]: '' }} suppressHydrationWarning>
      {renderedYear}
    </span>
  );
}
