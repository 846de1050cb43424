import '@test/quiet-logs';
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot, startProductionServer, type ProductionServer } from '@test/next-server';

// `npm start` exactly as an operator runs it (prestart, then scripts/start.mjs), in an environment
// that says nothing about telemetry and with an empty Next.js configuration folder, where Next.js
// would print its first-run telemetry notice and write its telemetry settings if telemetry were on.
describe('telemetry of npm start', () => {
  let server: ProductionServer | undefined;
  const folders: string[] = [];
  afterAll(async () => {
    await server?.stop();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('prints no telemetry notice and keeps no telemetry settings while serving pages', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'nirmaya-telemetry-home-'));
    const dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-telemetry-data-'));
    folders.push(home, dataDir);
    server = await startProductionServer({
      command: () => ({ file: 'npm', args: ['start'], cwd: repoRoot }),
      // Stopped as a terminal stops it: the signal reaches npm, its shell and the server.
      processGroup: true,
      env: {
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        DATA_DIR: dataDir,
        NEXT_TELEMETRY_DISABLED: undefined,
        NEXT_TELEMETRY_DEBUG: undefined,
      },
    });
    for (const page of ['/', '/contact-us', '/no-such-page']) {
      await (await fetch(server.url + page)).arrayBuffer();
    }
    await server.stop();

    const output = server.output();
    expect(output).toContain('node scripts/start.mjs'); // npm's own echo: the start script ran
    expect(output).not.toMatch(/telemetry/i);
    expect(existsSync(path.join(home, '.config', 'nextjs-nodejs'))).toBe(false);
  });
});
