import type { MDXComponents } from 'mdx/types';
import Link from 'next/link';
import { PostalAddress } from '@/components/ui/postal-address';
import { emailHref, site } from '@/content/site';
import { linkPrefetch } from '@/lib/link-prefetch';
import { cn } from '@/lib/utils';

/** Link style of running text: the accent green (AA on white), always underlined. */
const linkClass =
  'font-medium text-brand-700 underline decoration-brand-700/40 underline-offset-4 hover:text-brand-800 hover:decoration-brand-800';

/**
 * A link in MDX text. Site-internal paths (`/…`, `#…`) go through `next/link` for client-side
 * navigation (not prefetched when the page is rendered per request: `linkPrefetch`); `mailto:`,
 * `tel:` and external addresses stay plain anchors.
 */
function MdxLink({ href = '', className, children, ...props }: React.ComponentProps<'a'>) {
  const classes = cn(linkClass, className);
  if (href.startsWith('/') && !href.startsWith('//')) {
    return (
      <Link href={href} prefetch={linkPrefetch(href)} className={classes} {...props}>
        {children}
      </Link>
    );
  }
  return (
    <a href={href} className={classes} {...props}>
      {children}
    </a>
  );
}

/**
 * An e-mail address as a `mailto:` link: `address`, or by default the provider's (from
 * `src/content/site.ts`).
 */
export function EmailLink({ address }: { address?: string }) {
  return address ? (
    <MdxLink href={`mailto:${address}`}>{address}</MdxLink>
  ) : (
    <MdxLink href={emailHref}>{site.email}</MdxLink>
  );
}

/** The provider's postal address (from `src/content/site.ts`), set off from the text. */
export function LegalPostalAddress() {
  return <PostalAddress className="mt-2 border-l-4 border-brand-200 pl-2 text-slate-700" />;
}

const months = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/**
 * The visible "Last updated" line of a legal page. `date` is an ISO date (`YYYY-MM-DD`); it is
 * shown as "21 November 2026" and kept machine-readable in `<time dateTime>`.
 */
export function LastUpdated({ date }: { date: string }) {
  const [year, month, day] = date.split('-').map(Number);
  const label = `${day} ${months[(month ?? 1) - 1]} ${year}`;
  return (
    <p className="mt-2 text-sm text-slate-700">
      Last updated: <time dateTime={date}>{label}</time>
    </p>
  );
}

/**
 * Maps MDX elements to the site's typography for the legal pages (DESIGN.md §3). Text is ink or
 * slate-700 on white (AA contrast); focus outlines come from the global `:focus-visible` rule.
 * `EmailLink`, `PostalAddress` and `LastUpdated` are available in MDX without an import.
 */
export function useMDXComponents(components: MDXComponents): MDXComponents {
  return {
    h1: ({ className, ...props }) => (
      <h1
        className={cn('text-3xl font-bold tracking-tight text-ink sm:text-4xl', className)}
        {...props}
      />
    ),
    h2: ({ className, ...props }) => (
      <h2
        className={cn('mt-5 scroll-mt-4 text-2xl font-bold tracking-tight text-ink', className)}
        {...props}
      />
    ),
    h3: ({ className, ...props }) => (
      <h3
        className={cn('mt-3 scroll-mt-4 text-xl font-semibold tracking-tight text-ink', className)}
        {...props}
      />
    ),
    p: ({ className, ...props }) => (
      <p className={cn('mt-2 text-slate-700', className)} {...props} />
    ),
    ul: ({ className, ...props }) => (
      <ul
        className={cn(
          'mt-2 list-disc space-y-1 pl-3 text-slate-700 marker:text-brand-700',
          className,
        )}
        {...props}
      />
    ),
    ol: ({ className, ...props }) => (
      <ol
        className={cn(
          'mt-2 list-decimal space-y-1 pl-3 text-slate-700 marker:text-brand-800',
          className,
        )}
        {...props}
      />
    ),
    li: ({ className, ...props }) => <li className={cn('pl-0.5', className)} {...props} />,
    a: MdxLink,
    strong: ({ className, ...props }) => (
      <strong className={cn('font-semibold text-ink', className)} {...props} />
    ),
    hr: ({ className, ...props }) => (
      <hr className={cn('mt-5 border-slate-200', className)} {...props} />
    ),
    blockquote: ({ className, ...props }) => (
      <blockquote
        className={cn('mt-2 border-l-4 border-brand-200 pl-2 text-slate-700', className)}
        {...props}
      />
    ),
    table: ({ className, ...props }) => (
      <div className="mt-2 overflow-x-auto">
        <table
          className={cn('w-full border-collapse text-left text-slate-700', className)}
          {...props}
        />
      </div>
    ),
    th: ({ className, ...props }) => (
      <th
        className={cn('border-b-2 border-slate-300 p-1 font-semibold text-ink', className)}
        {...props}
      />
    ),
    td: ({ className, ...props }) => (
      <td className={cn('border-b border-slate-200 p-1 align-top', className)} {...props} />
    ),
    EmailLink,
    PostalAddress: LegalPostalAddress,
    LastUpdated,
    ...components,
  };
}
