import path from 'node:path';

/**
 * The directory the Next.js server serves from, captured once when this module loads: the project
 * for `next start`, and the bundle's own directory for the standalone `server.js`, which changes
 * into its directory before Next.js loads (next/dist/build/utils.js, `process.chdir(__dirname)`),
 * whatever directory the process was launched from. Files read at run time
 * (migrations, fonts, the CSP manifest) are resolved from here and listed in next.config.ts
 * `outputFileTracingIncludes` so the standalone bundle carries them.
 * @returns an absolute path
 */
export const serverRoot: string = process.cwd();

/** The build folder: `NEXT_DIST_DIR` (as in next.config.ts; `.next` by default) resolved from {@link serverRoot}. */
export const distDir = (): string =>
  path.resolve(/* turbopackIgnore: true */ serverRoot, process.env.NEXT_DIST_DIR ?? '.next');
