import type { NextConfig } from 'next';
import createMDX from '@next/mdx';
import { ACTION_BODY_LIMIT_KB } from './src/lib/http/request-limits';
import { staticSecurityHeaders } from './src/lib/security/headers';

const nextConfig: NextConfig = {
  // NEXT_DIST_DIR lets parallel builds (e.g. a benchmark beside the test suite) use their own folder.
  distDir: process.env.NEXT_DIST_DIR ?? '.next',
  // One deployable artifact (docs/deployment.md): `.next/standalone` holds server.js and only the
  // files it needs; scripts/build/after-build.mts adds the CSP manifest, static files and public/.
  output: 'standalone',
  // Files read at run time by path, which tracing cannot see (resolved from src/lib/server-root.ts).
  outputFileTracingIncludes: {
    '/**': [
      './drizzle/**/*',
      // The site dumps its PGlite for `leads backup` with pglite-tools' pg_dump (a WebAssembly file).
      './node_modules/@electric-sql/pglite-tools/dist/**/*',
      './node_modules/@fontsource/inter/files/inter-latin-400-normal.woff',
      './node_modules/@fontsource/inter/files/inter-latin-700-normal.woff',
    ],
  },

  pageExtensions: ['ts', 'tsx', 'mdx'],
  poweredByHeader: false,
  reactStrictMode: true,
  // gzip responses from `next start` (on by default; explicit because the budgets rely on it).
  compress: true,
  // node-ical: its rrule-temporal dependency pulls @js-temporal/polyfill, whose JSBI import breaks
  // when bundled (`s.BigInt is not a function` at build); loaded from node_modules instead.
  // pglite-tools: its pg_dump.wasm is read beside its module (import.meta.url), as PGlite's files are.
  serverExternalPackages: [
    '@electric-sql/pglite',
    '@electric-sql/pglite-tools',
    'pino',
    'prom-client',
    'node-ical',
  ],
  experimental: {
    // An enquiry is at most ~26 KB of UTF-8; src/proxy.ts refuses larger server-action bodies with
    // 413 before Next.js reads them, and this stays as Next.js's own bound.
    serverActions: { bodySizeLimit: `${ACTION_BODY_LIMIT_KB}kb` },
    // The proxy gets a copy of each request body, buffered up to this size: above the action limit
    // so that the proxy sees an oversized body as such, bounded so it costs little memory.
    proxyClientMaxBodySize: '1mb',
    // `forbidden()`: the console answers a role that may not see a page or run an action with 403.
    authInterrupts: true,
  },
  /** Security headers on every response; the CSP and HSTS are per request, in src/proxy.ts. */
  async headers() {
    return [{ source: '/:path*', headers: [...staticSecurityHeaders] }];
  },
};

const withMDX = createMDX({});

export default withMDX(nextConfig);
