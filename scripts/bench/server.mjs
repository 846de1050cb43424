// Builds a Next.js app into its own dist dir and runs `next start` for the benchmark.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Runs `next build` in `cwd` with `env` (e.g. NEXT_DIST_DIR), then the site's post-build step when
 * `cwd` has one (scripts/build/after-build.mts); throws when either fails. `next build`
 * adds the dist dir's type folders to `tsconfig.json`; the file is put back as it was, so a
 * benchmark leaves the work tree clean.
 * @param {string} cwd
 * @param {Record<string, string>} env
 */
export function buildNext(cwd, env) {
  const next = path.join(cwd, 'node_modules', 'next', 'dist', 'bin', 'next');
  const tsconfig = path.join(cwd, 'tsconfig.json');
  const original = existsSync(tsconfig) ? readFileSync(tsconfig, 'utf8') : null;
  const { status } = spawnSync(process.execPath, [next, 'build'], {
    cwd,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  if (original !== null) writeFileSync(tsconfig, original);
  if (status !== 0) throw new Error(`next build failed in ${cwd} (exit ${status})`);
  // The site's post-build step (`npm run build`): CSP manifest and standalone bundle.
  const afterBuild = path.join(cwd, 'scripts', 'build', 'after-build.mts');
  if (!existsSync(afterBuild)) return;
  const tsx = path.join(cwd, 'node_modules', '.bin', 'tsx');
  const step = spawnSync(tsx, [afterBuild], {
    cwd,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  if (step.status !== 0) throw new Error(`${afterBuild} failed (exit ${step.status})`);
}

/**
 * Starts `next start` (or `script`) on `port` in its own process group and waits until `/` answers; throws
 * when something already answers on `port` (it would be measured instead) or the server exits.
 * `pid` is the process started (the server's own, or the start script's above it).
 * @returns {Promise<{ url: string, pid: number, stop: () => Promise<void> }>}
 */
export async function startNext(cwd, port, env, { timeoutMs = 60_000, script } = {}) {
  const url = `http://127.0.0.1:${port}`;
  // A server left on the port (e.g. by an interrupted bench) would answer in place of this one.
  const stale = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    () => true,
    () => false,
  );
  if (stale) throw new Error(`${url} already answers: stop what listens on port ${port} first`);
  const next = path.join(cwd, 'node_modules', 'next', 'dist', 'bin', 'next');
  // `script` (e.g. scripts/start.mjs, as `npm start` runs) instead of `next start`.
  const args = script ? [script] : [next, 'start', '-p', String(port), '-H', '127.0.0.1'];
  const child = spawn(process.execPath, args, {
    cwd,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOSTNAME: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, 5_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) return { url, pid: /** @type {number} */ (child.pid), stop };
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  await stop();
  throw new Error(`next start on ${url} did not answer within ${timeoutMs} ms`);
}
