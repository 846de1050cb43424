import 'server-only';
import { manifestKey, type SiteManifest } from '@/seam/site-manifest';
import { siteManifest } from './build-facts';

let pages: { outputs: Set<string>; hashes: Map<string, string[]> } | undefined;

/**
 * The prerendered pages of the site manifest, indexed once.
 * @throws Error when the build has no site manifest (the build did not finish, or `next dev`)
 */
function prerendered() {
  if (pages) return pages;
  const manifest: SiteManifest | null = siteManifest();
  if (!manifest) throw new Error('No site manifest: build with `npm run build`');
  pages = { outputs: new Set(manifest.outputs), hashes: new Map(Object.entries(manifest.pages)) };
  return pages;
}

/**
 * Hashes of the inline scripts in the prerendered HTML of `pathname`, or `null` when the path was
 * not prerendered (it renders on demand, or is a 404) or is malformed.
 * @throws Error when the build has no site manifest.
 */
export function prerenderedScriptHashes(pathname: string): string[] | null {
  const key = manifestKey(pathname);
  return (key !== null && prerendered().hashes.get(key)) || null;
}

/**
 * Whether `next build` wrote any output for `pathname`: an HTML page or a file route such as an
 * Open Graph image. Such a path has a route of its own and is never aliased.
 * @throws Error when the build has no site manifest.
 */
export function hasPrerenderedOutput(pathname: string): boolean {
  const key = manifestKey(pathname);
  return key !== null && prerendered().outputs.has(key);
}

/**
 * Hashes of the static 404 page, which Next.js serves for any path it has no route for.
 * @throws Error when the build has no site manifest.
 */
export function notFoundScriptHashes(): string[] {
  return prerendered().hashes.get('/_not-found') ?? [];
}
