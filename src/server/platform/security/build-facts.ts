import 'server-only';
import type { Refusal } from '@/lib/http/request-limits';
import { distDir } from '@/lib/server-root';
import { readSiteManifest, type SiteManifest } from '@/seam/site-manifest';

let manifest: SiteManifest | null | undefined;

/**
 * The build's site manifest (src/seam/site-manifest.ts, written by the after-build step), read once
 * on first use and kept for the life of the process, which only ever serves the build it started
 * with; null under `next dev`, which has no such build (the checks that need it are skipped there).
 * In production the seam refuses to start without it, so it is always there.
 * @throws Error when a production server has no site manifest
 */
export function siteManifest(): SiteManifest | null {
  if (manifest !== undefined) return manifest;
  manifest = process.env.NODE_ENV === 'production' ? readSiteManifest(distDir()) : null;
  return manifest;
}

let actionIds: ReadonlySet<string> | null | undefined;

/** The ids of the build's server actions, or null without a build (`next dev`). */
export function serverActionIds(): ReadonlySet<string> | null {
  if (actionIds === undefined) {
    const ids = siteManifest()?.serverActionIds;
    actionIds = ids ? new Set(ids) : null;
  }
  return actionIds;
}

let apiRoutes: RegExp[] | null | undefined;

/**
 * Whether `pathname` is served by a route handler under /api (a dynamic segment `[x]` matches any
 * one segment). Those answer every method themselves.
 * @returns the answer, or null without a build (`next dev`)
 */
export function isApiRoute(pathname: string): boolean | null {
  apiRoutes ??=
    siteManifest()?.apiRoutes.map(
      (route) =>
        new RegExp(
          `^${route.replace(/[.*+?^${}()|\\]/g, '\\$&').replace(/\[[^/]*\]/g, '[^/]+')}/?$`,
        ),
    ) ?? null;
  return apiRoutes && apiRoutes.some((route) => route.test(pathname));
}

/**
 * The HTML of the page in the site's layout for `status` (the 404 page for 404,
 * `/request-error/<status>` from src/app/request-error for the others), without its scripts: it is
 * served at the refused request's URL, where hydrating it would not match the path (breadcrumb,
 * router state). Like every page without JavaScript, it reads fully and its links work.
 * @returns the HTML, or null without a build (`next dev`)
 */
export function refusalPage(status: Refusal['status']): string | null {
  return siteManifest()?.refusalPages[status] ?? null;
}
