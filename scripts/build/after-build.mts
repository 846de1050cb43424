// The step `npm run build` runs after `next build`: it needs the
// prerendered HTML, which `compiler.runAfterProductionCompile` runs too early to see.
// 1. Writes the CSP manifest (hashes of each prerendered page's inline scripts) into the build.
// 2. Completes the standalone bundle: the manifest, `.next/static` and `public/` (if any), which `next build`
//    leaves out of `.next/standalone` (a CDN may serve them; here the server does).
// Exits non-zero, so the build fails, when any of it cannot be done.
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  CSP_MANIFEST_FILE,
  createCspManifest,
} from '../../src/server/platform/security/csp-manifest';

const root = path.resolve(import.meta.dirname, '../..');
const distName = process.env.NEXT_DIST_DIR ?? '.next';
const distDir = path.resolve(root, distName);
const standalone = path.join(distDir, 'standalone');

const manifest = createCspManifest(distDir);
const json = JSON.stringify(manifest);
writeFileSync(path.join(distDir, CSP_MANIFEST_FILE), json);
console.log(
  `CSP manifest: ${Object.keys(manifest.pages).length} prerendered pages (build ${manifest.buildId}).`,
);

if (!existsSync(path.join(standalone, 'server.js')))
  throw new Error(
    `${standalone}/server.js is missing: next.config.ts must set output: 'standalone'`,
  );
const bundledDist = path.join(standalone, path.relative(root, distDir));
writeFileSync(path.join(bundledDist, CSP_MANIFEST_FILE), json);
cpSync(path.join(distDir, 'static'), path.join(bundledDist, 'static'), { recursive: true });
const publicDir = path.join(root, 'public');
if (existsSync(publicDir)) cpSync(publicDir, path.join(standalone, 'public'), { recursive: true });
console.log(`Standalone bundle ready: node ${path.relative(root, standalone)}/server.js`);
