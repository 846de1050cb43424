import type { NextConfig } from 'next';
import createMDX from '@next/mdx';

const nextConfig: NextConfig = {
  // NEXT_DIST_DIR lets parallel builds (e.g. a benchmark beside the test suite) use their own folder.
  distDir: process.env.NEXT_DIST_DIR ?? '.next',
  pageExtensions: ['ts', 'tsx', 'mdx'],
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: ['@electric-sql/pglite', 'pino'],
};

const withMDX = createMDX({});

export default withMDX(nextConfig);
