import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startProductionServer, type ProductionServer } from '@test/next-server';
import { CONTRACT, readFrameworkView, type FrameworkView } from '@test/framework-contract';
import { SITE_MANIFEST_FILE, type SiteManifest } from '@/seam/site-manifest';

/**
 * The framework contract (tests/support/framework-contract.ts) against the real build: a Next.js
 * upgrade that moves one of the internals the project relies on fails here, in one named place.
 * Then each check once more on a copy of the view with that internal altered on purpose: a check
 * that cannot fail proves nothing.
 */
let server: ProductionServer;
let view: FrameworkView;

beforeAll(async () => {
  server = await startProductionServer();
  const text = async (pathname: string) => (await fetch(server.url + pathname)).text();
  const manifest = JSON.parse(
    readFileSync(path.join(repoRoot, '.next', SITE_MANIFEST_FILE), 'utf8'),
  ) as SiteManifest;
  view = readFrameworkView(repoRoot, {
    rawPage: await text('/admin/sign-in'),
    contactPage: await text('/contact-us'),
    serverActionIds: manifest.serverActionIds,
  });
});

afterAll(() => server?.stop());

/** Each check's altered view: one internal changed as an upgrade could change it. */
const ALTERED: Record<string, (view: FrameworkView) => Partial<FrameworkView>> = {
  'next is pinned': () => ({ declaredVersion: '^16.4.6' }),
  'the standalone entry': ({ bundle }) => ({
    bundle: {
      ...bundle,
      'server.js': bundle['server.js']!.replace('process.chdir(__dirname)', ''),
    },
  }),
  'the seam calls getRequestHandlers': ({ bundle }) => ({
    bundle: mapFile(bundle, 'start-server.js', (text) =>
      text.replaceAll('getRequestHandlers', 'createRequestHandlers'),
    ),
  }),
  'the resolved config': ({ buildJson }) => ({
    buildJson: {
      ...buildJson,
      'required-server-files.json': {
        ...(buildJson['required-server-files.json'] as object),
        config: { moved: true },
      },
    },
  }),
  'the private origin': ({ bundle }) => ({
    bundle: mapFile(bundle, 'action-handler.js', (text) =>
      text.replaceAll('__NEXT_PRIVATE_ORIGIN', '__NEXT_ORIGIN'),
    ),
  }),
  'the build layout': ({ buildJson }) => ({
    buildJson: { ...buildJson, 'server/server-reference-manifest.json': { actions: {} } },
  }),
  'the HTML shape': ({ rawPage }) => ({
    rawPage: rawPage.replace(
      /<script src="\/_next\/static\//,
      '<script type="module" src="/_next/static/',
    ),
  }),
  'the boot order': ({ rawPage }) => ({ rawPage: rawPage.replaceAll(' async=""', '') }),
  'the server-action wire format': ({ contactPage }) => ({
    contactPage: contactPage.replaceAll('$ACTION_REF_', '$ACTION_KEY_'),
  }),
  'the route cache': ({ bundle }) => ({
    bundle: mapFile(bundle, 'file-system-cache.js', (text) =>
      text.replaceAll('route-cache', 'page-cache'),
    ),
  }),
};

/** `bundle` with the file whose path ends in `name` changed by `change`. */
function mapFile(
  bundle: Record<string, string>,
  name: string,
  change: (text: string) => string,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(bundle).map(([file, text]) => [file, file.endsWith(name) ? change(text) : text]),
  );
}

describe('the framework contract', () => {
  it('holds on the real build: every internal the project relies on is where it was', () => {
    const results = CONTRACT.map(({ name, check }) => ({ name, problem: check(view) }));
    for (const { name, problem } of results)
      console.log(`${problem ? 'BROKEN' : 'ok'}: ${name}${problem ? ` (${problem})` : ''}`);
    expect(results.filter(({ problem }) => problem)).toEqual([]);
  });

  it('fails on each internal altered on purpose', () => {
    expect(Object.keys(ALTERED).sort()).toEqual(CONTRACT.map(({ name }) => name).sort());
    for (const { name, check } of CONTRACT) {
      const altered = { ...view, ...ALTERED[name]!(view) };
      const problem = check(altered);
      console.log(`altered "${name}": ${problem}`);
      expect(problem, name).not.toBeNull();
    }
  });
});
