// `npm start`: runs the standalone server that `npm run build` produced, in this
// process so signals reach it directly. The server changes into its own directory, so a relative
// DATA_DIR is resolved here first, against the directory `npm start` was run from.
// Responses go out with brotli to clients that accept it (scripts/serve/brotli.mjs).
// Next.js's telemetry is off here as in `npm run build` (docs/deployment.md, "The runtime").
import path from 'node:path';
import { installBrotli } from './serve/brotli.mjs';

const distName = process.env.NEXT_DIST_DIR ?? '.next';
const standalone = path.resolve(import.meta.dirname, '..', distName, 'standalone');
process.env.DATA_DIR = path.resolve(process.env.DATA_DIR || '.data');
process.env.NEXT_TELEMETRY_DISABLED = '1';
installBrotli(path.join(standalone, distName));
await import(path.join(standalone, 'server.js'));
