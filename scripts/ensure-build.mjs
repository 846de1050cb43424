// Builds the site when there is no production build yet, so `npm start` and the browser tests
// work on a fresh clone. Exits with the build's status on failure.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

if (!existsSync('.next/BUILD_ID')) {
  console.log('No production build found: running `next build` first.');
  const { status } = spawnSync('npx', ['next', 'build'], { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
