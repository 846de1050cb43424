import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { distDir } from '@/lib/server-root';

const cache = new Map<string, unknown>();

/**
 * `derive` of the JSON manifest `<distDir>/server/<name>` that `next build` wrote (it ships in the
 * standalone bundle), read once on first use and kept for the life of the process, which only
 * ever serves the build it started with. Null under `next dev`, whose manifests change
 * as it compiles, and when the file is unreadable: the request checks that need it are skipped.
 */
function fromManifest<T>(name: string, derive: (manifest: Record<string, unknown>) => T): T | null {
  if (process.env.NODE_ENV !== 'production') return null;
  if (cache.has(name)) return cache.get(name) as T | null;
  let value: T | null = null;
  try {
    const file = path.join(/* turbopackIgnore: true */ distDir(), 'server', name);
    value = derive(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
  } catch {
    value = null;
  }
  cache.set(name, value);
  return value;
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
