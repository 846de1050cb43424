import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Name of the site's own manifest in the build folder (written by scripts/build/after-build.mts). */
export const SITE_MANIFEST_FILE = 'site-manifest.json';

/**
 * Everything run time needs from the build, written once by the after-build step
 * (scripts/build/site-manifest.ts) so that nothing at run time reads Next.js's own build files by
 * path: the seam reads `nextConfig`; the proxy reads the CSP hashes, the server actions, the API
 * routes and the refusal pages. Paths are URL paths without a trailing slash (`/`, `/products/4`,
 * `/_not-found`).
 */
export type SiteManifest = {
  /** The `BUILD_ID` it belongs to. */
  buildId: string;
  /** The resolved Next.js configuration the standalone server starts with. */
  nextConfig: Record<string, unknown>;
  /** Per prerendered HTML page: the `'sha256-…'` sources of its inline scripts, in document order. */
  pages: Record<string, string[]>;
  /** Every path with prerendered output (pages and file routes such as Open Graph images). */
  outputs: string[];
  /** The ids of the build's server actions. */
  serverActionIds: string[];
  /** The paths of the route handlers under /api (`[x]`: a dynamic segment; no route groups). */
  apiRoutes: string[];
  /** Per refusal status: the page in the site's layout, without its scripts. */
  refusalPages: Record<string, string>;
};

/**
 * Reads `<distDir>/site-manifest.json`.
 * @throws Error naming the file and `npm run build` when it is missing or unreadable
 */
export function readSiteManifest(distDir: string): SiteManifest {
  const file = path.join(distDir, SITE_MANIFEST_FILE);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SiteManifest;
  } catch (error) {
    throw new Error(`No site manifest at ${file}: build with \`npm run build\``, { cause: error });
  }
}

/**
 * The manifest key of a request path (`/about%2Dus/` -> `/about-us`), or `null` for a path that is
 * malformed or has dot segments (such a path never names build output).
 */
export function manifestKey(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const segments = decoded.split('/').filter(Boolean);
  if (segments.some((segment) => segment === '..' || segment === '.' || /[\0\\]/.test(segment)))
    return null;
  return '/' + segments.join('/');
}
