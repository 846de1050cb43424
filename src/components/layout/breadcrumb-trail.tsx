'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useSyncExternalStore } from 'react';
import { JsonLd } from '@/components/seo/json-ld';
import { buildBreadcrumbs, collapseBreadcrumbs } from '@/lib/breadcrumbs';
import { isRefusalPagePath } from '@/lib/http/request-limits';
import { breadcrumbJsonLd } from '@/lib/seo/structured-data';

/** Paths of Next.js's own pages (`/_not-found`), never a page of the site (spec §1 routes). */
const isFrameworkPath = (path: string | null) => path?.startsWith('/_') ?? false;
const noSubscription = () => () => {};
/** The operator console has its own navigation, and its paths are no part of the site's trail. */
const isConsolePath = (path: string) => path === '/admin' || path.startsWith('/admin/');

/**
 * Breadcrumb trail of the current path (spec §2), shown on every page but Home, the operator
 * console and the refusal pages: those are served, without scripts, at the refused request's URL, so their own
 * path (`/request-error/413`, "Request Error") is not where the visitor is. Reads the path on
 * the client side of the router so it also follows client navigation; it is prerendered with the page.
 * The same trail is given to search engines as a `BreadcrumbList` (JSON-LD), so the two always match.
 * The 404 page is prerendered once at Next.js's own path (`/_not-found`), not at the visitor's: its
 * HTML has no trail, and the browser adds the trail of the real URL once the page is hydrated.
 *
 * The client side of `Breadcrumbs` (breadcrumbs.tsx), which gives it the separator drawn on the
 * server.
 *
 * @param siteUrl The site's base URL (`SITE_URL`, known on the server) for the JSON-LD's absolute URLs.
 * @param separator The chevron between two items (spec §2), rendered on the server.
 */
export function BreadcrumbTrail({
  siteUrl,
  separator,
}: {
  siteUrl: string;
  separator: React.ReactNode;
}) {
  const routerPath = usePathname();
  // Server render and hydration use the third argument, the client after hydration the second.
  const pathname = useSyncExternalStore(
    noSubscription,
    () => routerPath,
    () => (isFrameworkPath(routerPath) ? null : routerPath),
  );
  if (!pathname || pathname === '/' || isRefusalPagePath(pathname) || isConsolePath(pathname))
    return null;
  const trail = buildBreadcrumbs(pathname);
  const items = collapseBreadcrumbs(trail);

  return (
    <nav aria-label="Breadcrumb" className="border-b border-slate-200 bg-surface">
      <ol className="mx-auto flex max-w-page flex-wrap items-center gap-x-0.5 gap-y-0.5 px-2 py-1 text-sm sm:px-3">
        {items.map((item, index) => (
          <li
            key={'ellipsis' in item ? 'ellipsis' : item.href}
            className="flex items-center gap-0.5"
          >
            {index > 0 && separator}
            {'ellipsis' in item ? (
              <span aria-label={`${item.hidden} more levels`} className="px-0.5 text-muted">
                …
              </span>
            ) : item.current ? (
              <Link
                href={item.href}
                prefetch={false}
                aria-current="page"
                className="font-semibold text-ink no-underline hover:underline"
              >
                {item.label}
              </Link>
            ) : (
              <Link href={item.href} className="text-brand-800 underline-offset-4 hover:underline">
                {item.label}
              </Link>
            )}
          </li>
        ))}
      </ol>
      <JsonLd data={breadcrumbJsonLd(trail, siteUrl)} />
    </nav>
  );
}
