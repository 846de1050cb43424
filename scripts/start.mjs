// `npm start`: runs the standalone server that `npm run build` produced, in this
// process so signals reach it directly. The server changes into its own directory, so a relative
// DATA_DIR is resolved here first, against the directory `npm start` was run from.
// It runs the bundle's entry, as the container does: the seam in front of Next.js
// (src/seam/server.ts, bundled by the build as `serve/start.mjs`; docs/architecture.md, "How a
// request is served").
// Next.js's telemetry is off here as in `npm run build` (docs/deployment.md, "The runtime").
import path from 'node:path';

const distName = process.env.NEXT_DIST_DIR ?? '.next';
const standalone = path.resolve(import.meta.dirname, '..', distName, 'standalone');
process.env.DATA_DIR = path.resolve(process.env.DATA_DIR || '.data');
process.env.NEXT_TELEMETRY_DISABLED = '1';
await import(path.join(standalone, 'serve', 'start.mjs'));
