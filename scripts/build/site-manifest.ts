// Build step (scripts/build/after-build.mts): the site's own manifest, the one file run time reads
// from the build (src/seam/site-manifest.ts says what it holds and who reads it). Everything in it
// is read here from Next.js's build output, whose layout is listed in tests/production/framework-contract.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inlineScriptHashes, withoutScripts } from '../../src/lib/security/inline-scripts';
import type { SiteManifest } from '../../src/seam/site-manifest';

/** The statuses the request guard refuses with a page of the site's layout (src/lib/http/request-limits.ts). */
export const REFUSAL_STATUSES = [400, 403, 404, 405, 413, 414] as const;

/** Reads a JSON file of the build. */
function json(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/**
 * Reads `next build`'s output in `distDir` and returns the site manifest.
 * @param distDir the build folder (`.next` by default), after the pages were rewritten
 * @throws Error when the build has no `BUILD_ID`, no prerendered home page or static 404 page, no
 *   refusal page, no server-action or app-paths manifest, or no resolved config: a build whose
 *   layout changed fails here instead of shipping a request guard that skips its checks.
 */
export function createSiteManifest(distDir: string): SiteManifest {
  const buildId = readFileSync(path.join(distDir, 'BUILD_ID'), 'utf8').trim();
  const server = path.join(distDir, 'server');
  const appDir = path.join(server, 'app');
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
      throw new Error(`Site manifest: ${appDir} has no prerendered HTML for ${required}`);

  const actions = json(path.join(server, 'server-reference-manifest.json'));
  const serverActionIds = ['node', 'edge'].flatMap((runtime) =>
    Object.keys((actions[runtime] as Record<string, unknown> | undefined) ?? {}),
  );
  const apiRoutes = Object.keys(json(path.join(server, 'app-paths-manifest.json')))
    .map((key) => key.replace(/\/\([^/]*\)/g, '')) // route groups are not in the URL
    .filter((key) => key.startsWith('/api/') && key.endsWith('/route'))
    .map((key) => key.slice(0, -'/route'.length))
    .sort();
  const refusalPages = Object.fromEntries(
    REFUSAL_STATUSES.map((status) => {
      const page = status === 404 ? '_not-found' : `request-error/${status}`;
      return [status, withoutScripts(readFileSync(path.join(appDir, `${page}.html`), 'utf8'))];
    }),
  );
  const nextConfig = json(path.join(distDir, 'required-server-files.json')).config;
  if (typeof nextConfig !== 'object' || nextConfig === null)
    throw new Error(`Site manifest: ${distDir}/required-server-files.json has no config`);
  return {
    buildId,
    nextConfig: nextConfig as Record<string, unknown>,
    pages,
    outputs,
    serverActionIds,
    apiRoutes,
    refusalPages,
  };
}

/** `index` -> `/`, `products/4` -> `/products/4` (build file name without extension). */
function routeOfFile(name: string): string {
  const route = '/' + name.split(path.sep).join('/');
  return route === '/index' ? '/' : route;
}
