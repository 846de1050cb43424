import { onDemandPaths } from '@/content/routes';

/**
 * The `prefetch` prop of a `<Link>` to `href` (a path, optionally with a query or fragment).
 * Returns `false` for a page rendered on each request (`onDemandPaths`: the contact form): Next.js
 * would otherwise render it on the server for every page view that shows such a link (the
 * "Schedule a Demo" buttons are on most pages), for a form most visitors never open. Returns
 * `undefined`, Next.js's default (prefetch in view), for every other page.
 */
export function linkPrefetch(href: string): false | undefined {
  const path = new URL(href, 'http://site.invalid').pathname;
  return (onDemandPaths as readonly string[]).includes(path) ? false : undefined;
}
