import Link from 'next/link';
import { consoleNotices } from '@/content/console';
import { ownValue } from '@/lib/own-value';
import { cn } from '@/lib/utils';

/**
 * Small pieces every console page uses: the notice after an action, tables, form controls and
 * page headings, in the site's tokens.
 */

export const inputClass =
  'min-h-5 min-w-0 rounded border border-slate-400 bg-white px-1 py-0.5 text-base text-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700';
export const labelClass = 'grid gap-0.5 text-sm font-semibold text-ink';
export const linkClass = 'font-semibold text-brand-800 underline underline-offset-2';
export const buttonClass =
  'inline-flex min-h-5 items-center justify-center rounded-cta bg-brand-700 px-2 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700';
export const secondaryButtonClass =
  'inline-flex min-h-5 items-center justify-center rounded-cta border border-brand-700 bg-white px-2 text-sm font-semibold text-brand-800 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700';

/** The page's heading with an optional line under it. */
export function PageHeading({ title, intro }: { title: string; intro?: React.ReactNode }) {
  return (
    <header className="mb-3">
      <h1 className="text-3xl font-bold tracking-tight text-ink">{title}</h1>
      {intro && <p className="mt-0.5 text-muted">{intro}</p>}
    </header>
  );
}

/**
 * What the last action did (`?notice=`), in a status region; nothing (no box, no gap) when there
 * is no notice.
 */
export function Notice({ notice }: { notice: string | string[] | undefined }) {
  const text = ownValue(consoleNotices, notice);
  return (
    <p
      role="status"
      className="mb-2 rounded border border-brand-300 bg-brand-50 p-1.5 text-ink empty:hidden"
    >
      {text}
    </p>
  );
}

/** A table that scrolls sideways on narrow screens instead of overflowing the page. */
export function DataTable({
  caption,
  head,
  children,
}: {
  caption: string;
  head: readonly string[];
  children: React.ReactNode;
}) {
  return (
    <div
      className="overflow-x-auto rounded border border-slate-200 bg-white"
      tabIndex={0}
      role="region"
      aria-label={caption}
    >
      <table className="w-full min-w-[40rem] border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-surface text-ink">
          <tr>
            {head.map((title) => (
              <th key={title} scope="col" className="px-1.5 py-1 font-semibold whitespace-nowrap">
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">{children}</tbody>
      </table>
    </div>
  );
}

/** A table cell with the console's padding. */
export function Cell({ children, className }: { children?: React.ReactNode; className?: string }) {
  return <td className={cn('px-1.5 py-1 align-top', className)}>{children}</td>;
}

/** An enquiry's reference as the link to its console page (not prefetched: pages are per request). */
export function EnquiryLink({ reference }: { reference: string }) {
  return (
    <Link href={`/admin/enquiries/${reference}`} prefetch={false} className={linkClass}>
      {reference}
    </Link>
  );
}

/** A time as `2026-03-06 10:00 UTC` (the console's one format, unambiguous for every operator). */
export function Time({ at }: { at: Date }) {
  const iso = at.toISOString();
  return <time dateTime={iso}>{`${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`}</time>;
}
