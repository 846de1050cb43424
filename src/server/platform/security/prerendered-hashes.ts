import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { distDir } from '@/lib/server-root';
import { CSP_MANIFEST_FILE, manifestKey, type CspManifest } from './csp-manifest';

let manifest: { outputs: Set<string>; pages: Map<string, string[]> } | undefined;

/**
 * The build's CSP manifest (`<distDir>/csp-manifest.json`, written after `next build` by
 * scripts/build/after-build.mts), read once on first use and kept for the life of the process:
 * a server only ever serves the build it started with.
 * @throws Error when the manifest is missing or unreadable (the build did not finish).
 */
function loadManifest() {
  if (manifest) return manifest;
  const file = path.join(distDir(), CSP_MANIFEST_FILE);
  let parsed: CspManifest;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as CspManifest;
  } catch (error) {
    throw new Error(`No CSP manifest at ${file}: build with \`npm run build\``, { cause: error });
  }
  manifest = { outputs: new Set(parsed.outputs), pages: new Map(Object.entries(parsed.pages)) };
  return manifest;
}

/**
 * Hashes of the inline scripts in the prerendered HTML of `pathname`, or `null` when the path was
 * not prerendered (it renders on demand, or is a 404) or is malformed.
 * @throws Error when the build has no CSP manifest.
 */
export function prerenderedScriptHashes(pathname: string): string[] | null {
  const key = manifestKey(pathname);
  return (key !== null && loadManifest().pages.get(key)) || null;
}

/**
 * Whether `next build` wrote any output for `pathname`: an HTML page or a file route such as an
 * Open Graph image. Such a path has a route of its own and is never aliased.
 * @throws Error when the build has no CSP manifest.
 */
export function hasPrerenderedOutput(pathname: string): boolean {
  const key = manifestKey(pathname);
  return key !== null && loadManifest().outputs.has(key);
}

/**
 * Hashes of the static 404 page, which Next.js serves for any path it has no route for.
 * @throws Error when the build has no CSP manifest.
 */
export function notFoundScriptHashes(): string[] {
  return loadManifest().pages.get('/_not-found') ?? [];
}
