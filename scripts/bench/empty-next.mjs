// The floor: a Next.js app with one empty page, same next/react versions as the site, built and
// measured the same way, so the site's first-load JavaScript can be compared with the framework's.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** The app's files. */
const files = {
  'package.json': JSON.stringify({ name: 'empty-next', private: true }, null, 2),
  'next.config.mjs': `export default { poweredByHeader: false };
`,
  'app/layout.jsx': `export const metadata = { title: 'Empty', description: 'An empty Next.js page.' };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
`,
  'app/page.jsx': `export default function Page() {
  return (
    <main>
      <h1>Empty</h1>
    </main>
  );
}
`,
};

/**
 * Writes the empty app into `dir` (default /tmp/empty-next) with a hard-linked copy of the repo's
 * node_modules (Turbopack does not follow a symlinked node_modules). Returns `dir`.
 */
export function prepareEmptyNext(repoDir, dir = '/tmp/empty-next') {
  rmSync(path.join(dir, 'app'), { recursive: true, force: true });
  rmSync(path.join(dir, '.next'), { recursive: true, force: true });
  mkdirSync(path.join(dir, 'app'), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  if (!existsSync(path.join(dir, 'node_modules', 'next'))) {
    rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true });
    const { status } = spawnSync(
      'cp',
      ['-al', path.join(repoDir, 'node_modules'), path.join(dir, 'node_modules')],
      { stdio: 'inherit' },
    );
    if (status !== 0) throw new Error('could not copy node_modules for the empty Next.js app');
  }
  return dir;
}
