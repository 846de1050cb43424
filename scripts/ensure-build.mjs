// Builds the site when there is no complete production build yet (the standalone bundle with its
// site manifest), so `npm start` and the browser tests work on a fresh clone. Exits with the
// build's status on failure.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

if (
  !existsSync('.next/standalone/.next/site-manifest.json') ||
  !existsSync('.next/standalone/serve/start.mjs')
) {
  console.log('No production build found: running `npm run build` first.');
  const { status } = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
