import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { staticImages } from './src/test/static-images';

// Unit and integration tests. Component tests opt into jsdom with `// @vitest-environment jsdom`.
export default defineConfig({
  plugins: [react(), staticImages()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // `server-only` throws outside React Server Components; tests import server code directly.
      'server-only': fileURLToPath(new URL('./src/test/server-only-stub.ts', import.meta.url)),
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'tests/*.test.ts'],
    environment: 'node',
    setupFiles: ['./src/test/setup.ts'],
    // A throwaway certificate trusted by the test processes (NODE_EXTRA_CA_CERTS), for HTTPS servers.
    globalSetup: ['./src/test/tls-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
