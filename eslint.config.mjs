import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTs,
  // Playwright fixtures call their callback `use`, which is not a React hook.
  { files: ['e2e/**'], rules: { 'react-hooks/rules-of-hooks': 'off' } },
  {
    ignores: [
      '.next*/**',
      'node_modules/**',
      'drizzle/**',
      '.data/**',
      'bench-results/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
];

export default config;
