import { createRequire } from 'node:module';
import path from 'node:path';

// The specs sign form tokens with the server's own definition (tests/support/form-token.ts), and
// server code is marked with `server-only`, a package that throws outside React's server build.
// Imported first by playwright.config.ts (which every worker loads), this gives the runner the
// package's empty server entry instead, as the vitest configurations alias it.
const require = createRequire(__filename);
const marker = require.resolve('server-only');
const empty = path.join(path.dirname(marker), 'empty.js');
require(empty);
require.cache[marker] = require.cache[empty];
