import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { staticImages } from './tests/support/static-images';

// Unit and integration tests. Component tests opt into jsdom with `// @vitest-environment jsdom`.
export default defineConfig({
  plugins: [react(), staticImages()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      '@test': fileURLToPath(new URL('./tests/support', import.meta.url)),
      // `server-only` throws outside React Server Components; tests import server code directly.
      'server-only': fileURLToPath(new URL('./tests/support/server-only-stub.ts', import.meta.url)),
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'tests/*.test.ts'],
    environment: 'node',
    setupFiles: ['./tests/support/setup.ts'],
    // A throwaway certificate trusted by the test processes (NODE_EXTRA_CA_CERTS), for HTTPS servers,
    // and the migrated PGlite database each suite copies.
    globalSetup: [
      './tests/support/tls-global-setup.ts',
      './tests/support/pglite-template-setup.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
