import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inlineScriptHashes } from '@/lib/security/inline-scripts';

/** Name of the manifest in the build folder (written by scripts/build/after-build.mts). */
export const CSP_MANIFEST_FILE = 'csp-manifest.json';

/**
 * The build's CSP facts, written once after `next build` prerendered the pages (docs/security.md).
 * Paths are URL paths without a trailing slash (`/`, `/products/4`, `/_not-found`).
 */
export type CspManifest = {
  /** The `BUILD_ID` the hashes belong to. */
  buildId: string;
  /** Per prerendered HTML page: the `'sha256-…'` sources of its inline scripts, in document order. */
  pages: Record<string, string[]>;
  /** Every path with prerendered output (pages and file routes such as Open Graph images). */
  outputs: string[];
};

/**
 * Reads the prerendered output in `<distDir>/server/app` and returns its manifest.
 * @param distDir the build folder (`.next` by default)
 * @throws Error when the build has no `BUILD_ID`, no prerendered home page or no static 404 page,
 *   so a build whose layout changed fails instead of shipping pages that never hydrate.
 */
export function createCspManifest(distDir: string): CspManifest {
  const buildId = readFileSync(path.join(distDir, 'BUILD_ID'), 'utf8').trim();
  const appDir = path.join(distDir, 'server', 'app');
  const pages: Record<string, string[]> = {};
  const outputs: string[] = [];
  for (const file of readdirSync(appDir, { recursive: true, encoding: 'utf8' }).sort()) {
    const extension = path.extname(file);
    if (extension !== '.html' && extension !== '.meta') continue;
    const route = routeOfFile(file.slice(0, -extension.length));
    if (extension === '.meta') outputs.push(route);
    else pages[route] = inlineScriptHashes(readFileSync(path.join(appDir, file), 'utf8'));
  }
  for (const required of ['/', '/_not-found'])
    if (!pages[required])
      throw new Error(`CSP manifest: ${appDir} has no prerendered HTML for ${required}`);
  return { buildId, pages, outputs };
}

/** `index` -> `/`, `products/4` -> `/products/4` (build file name without extension). */
function routeOfFile(name: string): string {
  const route = '/' + name.split(path.sep).join('/');
  return route === '/index' ? '/' : route;
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
