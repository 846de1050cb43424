// `npm start`: runs the standalone server that `npm run build` produced, in this
// process so signals reach it directly. The server changes into its own directory, so a relative
// DATA_DIR is resolved here first, against the directory `npm start` was run from.
import path from 'node:path';

process.env.DATA_DIR = path.resolve(process.env.DATA_DIR || '.data');
await import(path.resolve(import.meta.dirname, '../.next/standalone/server.js'));
