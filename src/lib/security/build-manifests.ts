import 'server-only';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildDir } from './prerendered-hashes';

const cache = new Map<string, { mtimeMs: number; value: unknown }>();

/**
 * `derive` of the JSON manifest `<build>/server/<name>` that `next build` wrote, read lazily and
 * cached until the file changes; null when there is none (e.g. under `next dev`) or it is unreadable.
 */
function fromManifest<T>(name: string, derive: (manifest: Record<string, unknown>) => T): T | null {
  const file = path.join(buildDir(), 'server', name);
  try {
    const { mtimeMs } = statSync(file);
    const cached = cache.get(file);
    if (cached?.mtimeMs === mtimeMs) return cached.value as T;
    const value = derive(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
    cache.set(file, { mtimeMs, value });
    return value;
  } catch {
    return null;
  }
}

/**
 * The ids of the build's server actions (server-reference-manifest.json).
 * @returns the ids, or null when the manifest cannot be read
 */
export function serverActionIds(): ReadonlySet<string> | null {
  return fromManifest('server-reference-manifest.json', (manifest) => {
    const ids = ['node', 'edge'].flatMap((runtime) => Object.keys(manifest[runtime] ?? {}));
    return new Set(ids) as ReadonlySet<string>;
  });
}

/**
 * Whether `pathname` is served by a route handler under /api (app-paths-manifest.json; a dynamic
 * segment `[x]` matches any one segment). Those answer every method themselves.
 * @returns the answer, or null when the manifest cannot be read
 */
export function isApiRoute(pathname: string): boolean | null {
  const routes = fromManifest('app-paths-manifest.json', (manifest) =>
    Object.keys(manifest)
      .filter((key) => key.startsWith('/api/') && key.endsWith('/route'))
      .map((key) => {
        const pattern = key
          .slice(0, -'/route'.length)
          .replace(/\/\([^/]*\)/g, '') // route groups are not in the URL
          .replace(/[.*+?^${}()|\\]/g, '\\$&')
          .replace(/\[[^/]*\]/g, '[^/]+');
        return new RegExp(`^${pattern}/?$`);
      }),
  );
  return routes && routes.some((route) => route.test(pathname));
}
