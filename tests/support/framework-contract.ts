import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createPageRewrite } from '@/seam/page-rewrite';
import { deferScripts } from '../../scripts/build/defer-scripts';

/**
 * Every Next.js internal the project relies on, in one list: what a Next.js upgrade must keep, or
 * the code named in `where` must change. Each check reads a {@link FrameworkView} of the real build
 * (tests/production/framework-contract.test.ts) and returns what is wrong, or null.
 */
export type ContractCheck = {
  name: string;
  /** What the project relies on, and where. */
  relies: string;
  check(view: FrameworkView): string | null;
};

/** What the checks read: files of the build and of the standalone bundle, and pages it served. */
export type FrameworkView = {
  /** `dependencies.next` in package.json. */
  declaredVersion: string;
  /** The version of `next` in the standalone bundle. */
  bundledVersion: string;
  /** Text of files of the standalone bundle, by path from its root. */
  bundle: Record<string, string>;
  /** Build files that exist, by path from the build folder. */
  buildFiles: Record<string, boolean>;
  /** Parsed JSON files of the build, by path from the build folder. */
  buildJson: Record<string, unknown>;
  /** A page rendered per request that the seam does not rewrite (the console's sign-in), as Next.js wrote it. */
  rawPage: string;
  /** The contact page as served (its form posts to a server action without JavaScript). */
  contactPage: string;
  /** The server actions of the site manifest. */
  serverActionIds: string[];
};

const START_SERVER = 'node_modules/next/dist/server/lib/start-server.js';
const ACTION_HANDLER = 'node_modules/next/dist/server/app-render/action-handler.js';
const FILE_SYSTEM_CACHE =
  'node_modules/next/dist/server/lib/incremental-cache/file-system-cache.js';

/** The files of the standalone bundle the checks read. */
export const BUNDLE_FILES = ['server.js', START_SERVER, ACTION_HANDLER, FILE_SYSTEM_CACHE];

/** The build files the site manifest is made from (scripts/build/site-manifest.ts). */
export const BUILD_FILES = [
  'BUILD_ID',
  'required-server-files.json',
  'server/server-reference-manifest.json',
  'server/app-paths-manifest.json',
  'server/app/index.html',
  'server/app/index.meta',
  'server/app/_not-found.html',
  ...[400, 403, 405, 413, 414].map((status) => `server/app/request-error/${status}.html`),
];

/** The config of the standalone `server.js` (`const nextConfig = {…}`), or null. */
function serverJsConfig(serverJs: string): Record<string, unknown> | null {
  const match = /^const nextConfig = (\{.*\})$/m.exec(serverJs);
  return match ? (JSON.parse(match[1]!) as Record<string, unknown>) : null;
}

/** The rewrite of a page rendered per request, and the reasons it gave up (none when it knows the shape). */
function rewriteOf(html: string): { out: string; reasons: string[] } {
  const reasons: string[] = [];
  const page = createPageRewrite({ nonce: 'bm9uY2U=', warn: (reason) => reasons.push(reason) });
  return { out: page.push(html) + page.end(), reasons };
}

export const CONTRACT: ContractCheck[] = [
  {
    name: 'next is pinned',
    relies:
      'package.json pins `next` to an exact version, the one in the bundle: every check below was made against it.',
    check: ({ declaredVersion, bundledVersion }) =>
      !/^\d+\.\d+\.\d+$/.test(declaredVersion)
        ? `package.json declares next "${declaredVersion}", not an exact version`
        : declaredVersion !== bundledVersion
          ? `package.json pins next ${declaredVersion}, the bundle has ${bundledVersion}`
          : null,
  },
  {
    name: 'the standalone entry',
    relies:
      "src/seam/server.ts does what Next.js's standalone server.js does before it starts Next.js: changes into the bundle, passes the resolved config in __NEXT_PRIVATE_STANDALONE_CONFIG, and starts through next/dist/server/lib/start-server.",
    check: ({ bundle }) => {
      const serverJs = bundle['server.js'] ?? '';
      for (const needed of [
        'process.chdir(__dirname)',
        'process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(nextConfig)',
        "require('next/dist/server/lib/start-server')",
      ])
        if (!serverJs.includes(needed)) return `server.js no longer has ${needed}`;
      return null;
    },
  },
  {
    name: 'the seam calls getRequestHandlers',
    relies:
      "src/seam/server.ts creates Next.js's handlers with start-server's getRequestHandlers({ dir, port, hostname, isDev, server, keepAliveTimeout }) and uses the requestHandler, upgradeHandler and server it resolves to, as Next.js's startServer does.",
    check: ({ bundle }) => {
      const text = bundle[START_SERVER] ?? '';
      const signature = /async function getRequestHandlers\(\{([^}]*)\}\)/.exec(text)?.[1];
      if (!signature || !/getRequestHandlers:\s*function/.test(text))
        return 'start-server no longer exports getRequestHandlers';
      for (const option of ['dir', 'port', 'hostname', 'isDev', 'server', 'keepAliveTimeout'])
        if (!new RegExp(`\\b${option}\\b`).test(signature))
          return `getRequestHandlers no longer takes ${option}`;
      for (const field of ['requestHandler', 'upgradeHandler', 'server'])
        if (!text.includes(`initResult.${field}`))
          return `startServer no longer uses initResult.${field}`;
      return null;
    },
  },
  {
    name: 'the resolved config',
    relies:
      "scripts/build/site-manifest.ts takes the config from required-server-files.json: the same as the standalone server.js's (its distDir written relative).",
    check: ({ bundle, buildJson }) => {
      const fromServer = serverJsConfig(bundle['server.js'] ?? '');
      const required = (buildJson['required-server-files.json'] as { config?: unknown })?.config;
      if (!fromServer || typeof required !== 'object' || required === null)
        return 'no config in server.js or required-server-files.json';
      const same = (config: Record<string, unknown>) =>
        JSON.stringify({ ...config, distDir: path.normalize(String(config.distDir)) });
      return same(fromServer) === same(required as Record<string, unknown>)
        ? null
        : 'the config of server.js differs from required-server-files.json';
    },
  },
  {
    name: 'the private origin',
    relies:
      'src/seam/server.ts sets __NEXT_PRIVATE_ORIGIN once it listens, as startServer does: server actions forwarded between workers read it.',
    check: ({ bundle }) =>
      (bundle[ACTION_HANDLER] ?? '').includes('process.env.__NEXT_PRIVATE_ORIGIN')
        ? null
        : 'the action handler no longer reads __NEXT_PRIVATE_ORIGIN',
  },
  {
    name: 'the build layout',
    relies:
      'scripts/build/site-manifest.ts reads BUILD_ID, the prerendered pages and their .meta, the 404 and refusal pages, server-reference-manifest.json ({ node: { <id>: … } }), app-paths-manifest.json ("/api/…/route" keys) and required-server-files.json.',
    check: ({ buildFiles, buildJson }) => {
      const missing = BUILD_FILES.filter((file) => !buildFiles[file]);
      if (missing.length) return `missing from the build: ${missing.join(', ')}`;
      const actions = buildJson['server/server-reference-manifest.json'] as {
        node?: Record<string, unknown>;
      };
      if (!actions?.node || Object.keys(actions.node).length === 0)
        return 'server-reference-manifest.json has no node actions';
      const paths = Object.keys(buildJson['server/app-paths-manifest.json'] ?? {});
      if (!paths.includes('/api/health/route'))
        return 'app-paths-manifest.json has no "/api/health/route"';
      return null;
    },
  },
  {
    name: 'the HTML shape',
    relies:
      'scripts/build/defer-scripts.ts and src/seam/page-rewrite.ts rewrite what Next.js writes: classic <script src="/_next/static/…" async> files, <link rel="preload" as="script"> hints, inline self.__next_f pushes, one </body>.',
    check: ({ rawPage }) => {
      if (!/<script src="\/_next\/static\/[^"]+" async=""/.test(rawPage))
        return 'no <script src="/_next/static/…" async> in a page';
      const { out, reasons } = rewriteOf(rawPage);
      if (reasons.length) return `the per-request rewrite gave up: ${reasons.join(', ')}`;
      if (/<script[^>]*\bsrc=/.test(out)) return 'a <script src> is left after the rewrite';
      try {
        deferScripts(rawPage);
      } catch (error) {
        return `the build's rewrite refuses the page: ${(error as Error).message}`;
      }
      return null;
    },
  },
  {
    name: 'the boot order',
    relies:
      "src/lib/page-loader.ts runs the inline payload (which starts with the bootstrap `(self.__next_f=self.__next_f||[]).push([0])`) and then the chunks in document order: the page's own chunks are all async (but the nomodule polyfills, which modern browsers skip), so Next.js's client already starts whatever ran first.",
    check: ({ rawPage }) => {
      if (!rawPage.includes('(self.__next_f=self.__next_f||[]).push([0])'))
        return 'no self.__next_f bootstrap in a page';
      const blocking = [...rawPage.matchAll(/<script\b[^>]*\bsrc="[^"]*"[^>]*>/g)].filter(
        ([tag]) => !/\b(async|nomodule)\b/i.test(tag),
      );
      return blocking.length ? `a chunk that is not async: ${blocking[0]![0]}` : null;
    },
  },
  {
    name: 'the server-action wire format',
    relies:
      'src/lib/security/action-form.ts reads a form posted without JavaScript as React writes it: a hidden $ACTION_REF_<n> field and its $ACTION_<n>:0 descriptor {"id":"<id>","bound":"$@<n>"} naming an id of server-reference-manifest.json.',
    check: ({ contactPage, serverActionIds }) => {
      const ref = /name="\$ACTION_REF_(\d+)"/.exec(contactPage)?.[1];
      if (!ref) return 'no $ACTION_REF_ field in the contact form';
      const descriptor = new RegExp(
        `name="\\$ACTION_${ref}:0" value="\\{&quot;id&quot;:&quot;([0-9a-f]+)&quot;,&quot;bound&quot;:&quot;\\$@`,
      ).exec(contactPage)?.[1];
      if (!descriptor) return `no {"id","bound"} descriptor for $ACTION_REF_${ref}`;
      return serverActionIds.includes(descriptor)
        ? null
        : `the form's action ${descriptor} is not in the manifest`;
    },
  },
  {
    name: 'the route cache',
    relies:
      'scripts/build/after-build.mts removes <distDir>/server/route-cache from the bundle, where Next.js keeps pages it served before the rewrite.',
    check: ({ bundle }) =>
      (bundle[FILE_SYSTEM_CACHE] ?? '').includes('route-cache')
        ? null
        : 'the incremental cache no longer names route-cache',
  },
];

/**
 * Reads the view of the build in `repo` (its `.next`, the standalone bundle and package.json);
 * the pages come from a running server.
 */
export function readFrameworkView(
  repo: string,
  pages: { rawPage: string; contactPage: string; serverActionIds: string[] },
): FrameworkView {
  const dist = path.join(repo, '.next');
  const standalone = path.join(dist, 'standalone');
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  const packageJson = JSON.parse(read(path.join(repo, 'package.json'))) as {
    dependencies: Record<string, string>;
  };
  return {
    declaredVersion: packageJson.dependencies.next ?? '',
    bundledVersion: (
      JSON.parse(read(path.join(standalone, 'node_modules/next/package.json'))) as {
        version: string;
      }
    ).version,
    bundle: Object.fromEntries(
      BUNDLE_FILES.map((file) => [file, read(path.join(standalone, file))]),
    ),
    buildFiles: Object.fromEntries(
      BUILD_FILES.map((file) => [file, existsSync(path.join(dist, file))]),
    ),
    buildJson: Object.fromEntries(
      BUILD_FILES.filter((file) => file.endsWith('.json')).map((file) => [
        file,
        JSON.parse(read(path.join(dist, file)) || 'null') as unknown,
      ]),
    ),
    ...pages,
  };
}
