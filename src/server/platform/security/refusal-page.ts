import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Refusal } from '@/lib/http/request-limits';
import { distDir } from '@/lib/server-root';
import { withoutScripts } from '@/lib/security/inline-scripts';

const pages = new Map<Refusal['status'], string | null>();

/**
 * The HTML of the page in the site's layout for `status`, as `next build` prerendered it (the 404
 * page for 404, `/request-error/<status>` from src/app/request-error for the others; both ship in
 * the standalone bundle), without its scripts: it is served at the refused request's URL, where
 * hydrating it would not match the path (breadcrumb, router state). Like every page without
 * JavaScript, it reads fully and its links work. Read once per status and kept (no reads
 * of build output per request).
 * @returns the HTML, or null when the build has none (e.g. under `next dev`)
 */
export function refusalPage(status: Refusal['status']): string | null {
  if (!pages.has(status)) {
    const page = status === 404 ? '_not-found' : `request-error/${status}`;
    const file = path.join(/* turbopackIgnore: true */ distDir(), 'server', 'app', `${page}.html`);
    try {
      pages.set(status, withoutScripts(readFileSync(file, 'utf8')));
    } catch {
      pages.set(status, null);
    }
  }
  return pages.get(status) ?? null;
}
