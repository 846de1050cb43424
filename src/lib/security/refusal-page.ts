import 'server-only';
import { readFileSync } from 'node:fs';
import type { Refusal } from '@/lib/http/request-limits';
import { prerenderedFile, prerenderedScriptHashes } from './prerendered-hashes';

/** The prerendered page explaining a refusal: its HTML and the hashes of its inline scripts. */
export type RefusalPage = { html: string; scriptHashes: string[] };

/**
 * The page in the site's layout for `status`, as `next build` prerendered it: the 404 page for
 * 404, `/request-error/<status>` (src/app/request-error) for the others.
 * @returns the page, or null when the build has none (e.g. under `next dev`)
 */
export function refusalPage(status: Refusal['status']): RefusalPage | null {
  const pathname = status === 404 ? '/_not-found' : `/request-error/${status}`;
  const file = prerenderedFile(pathname);
  const scriptHashes = prerenderedScriptHashes(pathname);
  if (!file || !scriptHashes) return null;
  try {
    return { html: readFileSync(file, 'utf8'), scriptHashes };
  } catch {
    return null;
  }
}
