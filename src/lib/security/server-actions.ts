import 'server-only';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildDir } from './prerendered-hashes';

let cached: { mtimeMs: number; ids: ReadonlySet<string> } | null = null;

/**
 * The ids of the build's server actions, from the server-reference manifest `next build` wrote
 * (`<build>/server/server-reference-manifest.json`), read lazily and cached until the file changes.
 * @returns the ids, or null when there is no readable manifest (e.g. under `next dev`)
 */
export function serverActionIds(): ReadonlySet<string> | null {
  const file = path.join(buildDir(), 'server', 'server-reference-manifest.json');
  try {
    const { mtimeMs } = statSync(file);
    if (cached?.mtimeMs !== mtimeMs) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const ids = ['node', 'edge'].flatMap((runtime) => Object.keys(manifest[runtime] ?? {}));
      cached = { mtimeMs, ids: new Set(ids) };
    }
    return cached.ids;
  } catch {
    return null;
  }
}
