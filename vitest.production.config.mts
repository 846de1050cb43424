import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

// Tests against the production build (run after `next build`): real `next start` processes,
// signals, databases and SMTP servers. Two files at a time: each starts its own servers on free
// ports, with its own data folder and database, and spends most of its time waiting on slow relays,
// leases and restarts, so a second file uses the idle core (the time limits in the tests allow it).
export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      '@test': fileURLToPath(new URL('./tests/support', import.meta.url)),
      'server-only': fileURLToPath(new URL('./tests/support/server-only-stub.ts', import.meta.url)),
    },
  },
  test: {
    include: ['tests/production/**/*.test.ts'],
    environment: 'node',
    maxWorkers: 2,
    // The migrated PGlite database each seeded PGlite site copies (openTestDatabase).
    globalSetup: ['./tests/support/pglite-template-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
