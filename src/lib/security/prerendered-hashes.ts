import 'server-only';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { inlineScriptHashes } from './inline-scripts';

/** The build folder, as in next.config.ts (`NEXT_DIST_DIR` lets parallel builds use their own). */
export const buildDir = () => path.resolve(process.cwd(), process.env.NEXT_DIST_DIR ?? '.next');

const appDir = () => path.join(buildDir(), 'server', 'app');

type Entry = { mtimeMs: number; size: number; hashes: string[] };
const cache = new Map<string, Entry>();

/**
 * The prerendered HTML file `next build` wrote for `pathname` (`/` -> `index.html`,
 * `/products/4` -> `products/4.html`), or `null` when the path has none or is not a plain path.
 */
export function prerenderedFile(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const segments = decoded.split('/').filter(Boolean);
  if (segments.some((segment) => segment === '..' || segment === '.' || /[\0\\]/.test(segment)))
    return null;
  const root = appDir();
  const file = path.join(root, `${segments.length === 0 ? 'index' : segments.join('/')}.html`);
  return file.startsWith(root + path.sep) ? file : null;
}

/**
 * Hashes of the inline scripts in the prerendered HTML of `pathname`, or `null` when the path was
 * not prerendered (it renders on demand, or is a 404). Read lazily from the build output and cached
 * until the file changes, so the policy always matches the HTML the server sends, without a
 * separate build step that could be forgotten.
 */
export function prerenderedScriptHashes(pathname: string): string[] | null {
  const file = prerenderedFile(pathname);
  return file ? hashesOfFile(file) : null;
}

/**
 * Whether `next build` wrote any output for `pathname`: an HTML page or a file route such as an
 * Open Graph image (`.meta` beside it). Such a path has a route of its own and is never aliased.
 */
export function hasPrerenderedOutput(pathname: string): boolean {
  const file = prerenderedFile(pathname);
  if (!file) return false;
  try {
    return statSync(file.replace(/\.html$/, '.meta')).isFile();
  } catch {
    return false;
  }
}

/** Hashes of the static 404 page, which Next.js serves for any path it has no route for. */
export function notFoundScriptHashes(): string[] {
  return hashesOfFile(path.join(appDir(), '_not-found.html')) ?? [];
}

function hashesOfFile(file: string): string[] | null {
  let stats;
  try {
    stats = statSync(file);
  } catch {
    return null;
  }
  if (!stats.isFile()) return null;
  const cached = cache.get(file);
  if (cached && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size)
    return cached.hashes;
  const hashes = inlineScriptHashes(readFileSync(file, 'utf8'));
  cache.set(file, { mtimeMs: stats.mtimeMs, size: stats.size, hashes });
  return hashes;
}
