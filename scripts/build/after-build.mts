// The step `npm run build` runs after `next build`: it needs the
// prerendered HTML, which `compiler.runAfterProductionCompile` runs too early to see.
// 1. Builds the visit beacon and the page script (beacon.ts) into `static/deferred/` and names
//    them in the loader manifest, which the server reads for the pages it renders per request;
//    defers the scripts of each prerendered page (defer-scripts.ts): one inline loader per page that
//    runs the beacon and the page script after `load` and the framework's scripts on the first
//    interaction, Next.js's inline payload moved into a file of its own under `static/`.
// 2. Writes the site manifest (./site-manifest.ts: the hashes of each prerendered page's inline
//    scripts, from the rewritten pages, the server actions, the API routes, the refusal pages and
//    the resolved config) into the build: run time reads no file of Next.js's by path.
// 3. Precompresses the prerendered pages with brotli (precompress.ts), for `npm start`.
// 4. Completes the standalone bundle: the manifests, `.next/static` and `public/` (if any), which `next build`
//    leaves out of `.next/standalone` (a CDN may serve them; here the server does), and its entry,
//    the seam in front of Next.js (./seam.ts: src/seam/server.ts bundled as `serve/start.mjs`).
// Exits non-zero, so the build fails, when any of it cannot be done.
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { SITE_MANIFEST_FILE } from '../../src/seam/site-manifest';
import { atLoadScripts, LOADER_MANIFEST_FILE } from '../../src/lib/page-loader';
import { buildSeam } from './seam';
import { createSiteManifest } from './site-manifest';
import { buildBeacon, buildPageScript } from './beacon';
import { DEFERRED_FOLDER, deferScripts } from './defer-scripts';
import { precompressPages, readBodies, staticTextFiles } from './precompress';

const root = path.resolve(import.meta.dirname, '../..');
const distName = process.env.NEXT_DIST_DIR ?? '.next';
const distDir = path.resolve(root, distName);
const standalone = path.join(distDir, 'standalone');

const appDir = path.join(distDir, 'server', 'app');
const pageFiles = readdirSync(appDir, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.html'))
  .sort();
mkdirSync(path.join(distDir, 'static', DEFERRED_FOLDER), { recursive: true });
const [beacon, pageScript] = await Promise.all([buildBeacon(), buildPageScript()]);
for (const script of [beacon, pageScript])
  writeFileSync(path.join(distDir, script.path.replace(/^\/_next\//, '')), script.text);
const deferredScripts = { beacon: beacon.path, page: pageScript.path };
const loaderManifest = JSON.stringify(deferredScripts);
writeFileSync(path.join(distDir, LOADER_MANIFEST_FILE), loaderManifest);
console.log(`Visit beacon: ${beacon.path}, ${beacon.gzipBytes} bytes gzip.`);
console.log(`Page script: ${pageScript.path}, ${pageScript.gzipBytes} bytes gzip.`);
const atLoad = atLoadScripts(deferredScripts);
for (const file of pageFiles) {
  const { html, payload } = deferScripts(readFileSync(path.join(appDir, file), 'utf8'), {
    atLoad,
    // The console is not made to work without JavaScript: its framework starts at `load`.
    now: /^admin([/\\.]|$)/.test(file),
  });
  writeFileSync(path.join(appDir, file), html);
  writeFileSync(path.join(distDir, payload.path.replace(/^\/_next\//, '')), payload.text);
}
console.log(`Scripts deferred to the first interaction on ${pageFiles.length} prerendered pages.`);

const manifest = createSiteManifest(distDir);
const json = JSON.stringify(manifest);
writeFileSync(path.join(distDir, SITE_MANIFEST_FILE), json);
console.log(
  `Site manifest: ${Object.keys(manifest.pages).length} prerendered pages, ` +
    `${manifest.serverActionIds.length} server actions, ${manifest.apiRoutes.length} API routes ` +
    `(build ${manifest.buildId}).`,
);

if (!existsSync(path.join(standalone, 'server.js')))
  throw new Error(
    `${standalone}/server.js is missing: next.config.ts must set output: 'standalone'`,
  );
const bundledDist = path.join(standalone, path.relative(root, distDir));
writeFileSync(path.join(bundledDist, SITE_MANIFEST_FILE), json);
writeFileSync(path.join(bundledDist, LOADER_MANIFEST_FILE), loaderManifest);
rmSync(path.join(standalone, 'serve'), { recursive: true, force: true });
await buildSeam(path.join(standalone, 'serve', 'start.mjs'));
// `next build` copied the pages into the bundle before they were rewritten; a server run before
// this step may have cached the originals in the bundle (Next.js 16.4's route cache): dropped.
rmSync(path.join(bundledDist, 'server', 'route-cache'), { recursive: true, force: true });
for (const file of pageFiles)
  cpSync(path.join(appDir, file), path.join(bundledDist, 'server', 'app', file));
const precompressed = precompressPages(
  [
    ...pageFiles.map((file) => readFileSync(path.join(appDir, file))),
    ...readBodies(staticTextFiles(distDir)),
  ],
  [distDir, bundledDist],
);
console.log(`Brotli: ${precompressed} prerendered pages, scripts and styles precompressed.`);
cpSync(path.join(distDir, 'static'), path.join(bundledDist, 'static'), { recursive: true });
const publicDir = path.join(root, 'public');
if (existsSync(publicDir)) cpSync(publicDir, path.join(standalone, 'public'), { recursive: true });
console.log(`Standalone bundle ready: node ${path.relative(root, standalone)}/serve/start.mjs`);
