// The entry of the standalone bundle: `npm run build` copies this folder into
// `.next/standalone/serve/`, and both `npm start` (scripts/start.mjs) and the container image
// (Dockerfile: `node serve/start.mjs`) start the site through it. It installs brotli and the
// rewrite of pages rendered per request around Next.js's request handler (./brotli.mjs), then
// runs Next.js's own `server.js` beside it. Runs only from inside the bundle.
import path from 'node:path';
import { installBrotli } from './brotli.mjs';

const standalone = path.resolve(import.meta.dirname, '..');
installBrotli(path.join(standalone, process.env.NEXT_DIST_DIR ?? '.next'));
await import(path.join(standalone, 'server.js'));
