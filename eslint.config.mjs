import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTs,
  // Playwright fixtures call their callback `use`, which is not a React hook.
  { files: ['e2e/**'], rules: { 'react-hooks/rules-of-hooks': 'off' } },
  // Demo booking reads calendars anyone can write to: an array spread into a call's arguments
  // (`push(...x)`, `Math.max(...x)`) throws RangeError past V8's argument limit, so it copies and
  // merges by loop (docs/demo-booking.md, hostile calendars).
  {
    files: ['src/server/features/demos/**', 'src/lib/demo/**', 'src/app/contact-us/demo/**'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression > SpreadElement',
          message: 'No spread into call arguments in demo code: loop, or mergeIntervals.',
        },
      ],
    },
  },
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
