import 'server-only';
import { readFileSync } from 'node:fs';
import type { Refusal } from '@/lib/http/request-limits';
import { withoutScripts } from './inline-scripts';
import { prerenderedFile } from './prerendered-hashes';

/**
 * The HTML of the page in the site's layout for `status`, as `next build` prerendered it (the 404
 * page for 404, `/request-error/<status>` from src/app/request-error for the others), without its
 * scripts: it is served at the refused request's URL, where hydrating it would not match the path
 * (breadcrumb, router state). Like every page without JavaScript, it reads fully and its links work.
 * @returns the HTML, or null when the build has none (e.g. under `next dev`)
 */
export function refusalPage(status: Refusal['status']): string | null {
  const file = prerenderedFile(status === 404 ? '/_not-found' : `/request-error/${status}`);
  try {
    return file && withoutScripts(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
