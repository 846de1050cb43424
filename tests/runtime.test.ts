import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '..');
const semver = createRequire(import.meta.url)('next/dist/compiled/semver') as {
  satisfies(version: string, range: string): boolean;
};
const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};
const dockerfile = await readFile(path.join(repoRoot, 'Dockerfile'), 'utf8');

/** The Dockerfile's stages: name -> its lines (from `FROM` to the next `FROM`). */
const stages = new Map(
  dockerfile
    .split(/^(?=FROM )/m)
    .filter((stage) => stage.startsWith('FROM '))
    .map((stage) => [/ AS (\S+)/.exec(stage)![1]!, stage]),
);

describe('the Node.js runtime', () => {
  const image = /^ARG NODE_IMAGE=node:(\d+)-/m.exec(dockerfile);

  it('every stage of the image runs the one Node.js line named in NODE_IMAGE', () => {
    expect(image, 'ARG NODE_IMAGE=node:<major>-…').not.toBeNull();
    expect([...stages.keys()]).toEqual(['deps', 'build', 'runtime']);
    for (const stage of stages.values()) expect(stage).toMatch(/^FROM \$\{NODE_IMAGE\} AS /);
  });

  it('engines admits Node.js 20 (this machine, vendors not yet moved) and the image line', () => {
    console.log(`engines.node ${pkg.engines.node}; image Node.js ${image![1]}`);
    expect(semver.satisfies('20.19.0', pkg.engines.node)).toBe(true);
    expect(semver.satisfies(`${image![1]}.0.0`, pkg.engines.node)).toBe(true);
  });
});

// The scripts of package.json run as npm runs them, with `next` and `tsx` replaced by stubs: the
// `next` stub constructs Next.js's own Telemetry object (as `next build` and `next dev` do), which
// prints the first-run notice and records the notice in its settings when telemetry is on.
describe('telemetry of npm run build and npm run dev', () => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  const telemetryModule = path.join(repoRoot, 'node_modules/next/dist/telemetry/storage.js');
  const nextStub = `#!/usr/bin/env node
const { Telemetry } = require(${JSON.stringify(telemetryModule)});
const telemetry = new Telemetry({ distDir: require('node:path').resolve('.next') });
console.log('next ' + process.argv[2] + ': telemetry ' + (telemetry.isEnabled ? 'on' : 'off'));
`;

  /** A project folder with package.json's scripts, the stubs, and an empty home folder. */
  async function project() {
    const dir = await mkdtemp(path.join(tmpdir(), 'nirmaya-telemetry-'));
    folders.push(dir);
    const bin = path.join(dir, 'node_modules/.bin');
    await mkdir(bin, { recursive: true });
    await mkdir(path.join(dir, 'home'));
    await writeFile(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'stubbed', private: true, scripts: pkg.scripts }),
    );
    await writeFile(path.join(bin, 'next'), nextStub);
    await writeFile(path.join(bin, 'tsx'), '#!/bin/sh\necho "tsx $1"\n');
    await Promise.all([chmod(path.join(bin, 'next'), 0o755), chmod(path.join(bin, 'tsx'), 0o755)]);
    const env = {
      ...process.env,
      HOME: path.join(dir, 'home'),
      XDG_CONFIG_HOME: path.join(dir, 'home/.config'),
      NEXT_TELEMETRY_DISABLED: undefined,
      NEXT_TELEMETRY_DEBUG: undefined,
    };
    const output = async (file: string, args: string[]) => {
      const { stdout, stderr } = await run(file, args, { cwd: dir, env });
      return stdout + stderr;
    };
    return { output };
  }

  it('the stub shows the notice when nothing turns telemetry off (control)', async () => {
    const { output } = await project();
    const printed = await output('node', ['node_modules/.bin/next', 'build']);
    expect(printed).toContain('next build: telemetry on');
    expect(printed).toContain('Next.js now collects completely anonymous telemetry');
  });

  it('npm run build: telemetry off, no notice, the after-build step still runs', async () => {
    const { output } = await project();
    const printed = await output('npm', ['run', 'build']);
    expect(printed).toContain('next build: telemetry off');
    expect(printed).toContain('tsx scripts/build/after-build.mts');
    expect(printed).not.toContain('anonymous telemetry');
  });

  it('npm run dev: telemetry off, no notice', async () => {
    const { output } = await project();
    const printed = await output('npm', ['run', 'dev']);
    expect(printed).toContain('next dev: telemetry off');
    expect(printed).not.toContain('anonymous telemetry');
  });

  it('the image sets NEXT_TELEMETRY_DISABLED=1 where Next.js builds and where it serves', () => {
    for (const name of ['build', 'runtime']) {
      expect(stages.get(name), name).toMatch(/^ENV[^\n]*(\\\n[^\n]*)*NEXT_TELEMETRY_DISABLED=1/m);
    }
  });

  it('compose sets it for the site instances and the migration job', async () => {
    const compose = await readFile(path.join(repoRoot, 'compose.yaml'), 'utf8');
    /** The lines of the top-level (indent 0) or service (indent 2) block `name`. */
    const block = (name: string, indent: string) =>
      new RegExp(`^${indent}${name}:.*\\n((?:${indent}[ ]+.*\\n|\\s*\\n)*)`, 'm').exec(
        compose,
      )?.[1];
    for (const [name, indent] of [
      ['x-site', ''],
      ['migrate', '  '],
    ] as const) {
      expect(block(name, indent), name).toMatch(/^\s+NEXT_TELEMETRY_DISABLED: '1'$/m);
    }
    expect(compose).toMatch(/site-1:\n\s+<<: \*site\n/);
    expect(compose).toMatch(/site-2:\n\s+<<: \*site\n/);
  });
});
