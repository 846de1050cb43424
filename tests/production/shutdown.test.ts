import '@test/quiet-logs';
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { backends, backendTitle } from '@test/databases';
import { startSmtpServer } from '@test/smtp';
import { until } from '@test/enquiry';
import {
  logLines,
  repoRoot,
  startProductionServer,
  type ProductionServer,
} from '@test/next-server';
import { seedSiteData, type SiteData } from '@test/site-data';

const run = promisify(execFile);
const ENQUIRIES = 20;

/** `npm run leads -- …args` as an operator runs it beside the site (same DATA_DIR). */
const leads = (env: Record<string, string>, ...args: string[]) =>
  run('npm', ['run', '--silent', 'leads', '--', ...args], {
    cwd: repoRoot,
    // The site's address, as the operator's environment beside the site holds it.
    env: { ...process.env, SITE_URL: 'http://localhost:3000', ...env, LOG_LEVEL: 'silent' },
  });

const events = (server: ProductionServer, event: string) =>
  logLines(server.output()).filter((line) => line.event === event);

// Graceful shutdown: SIGTERM while a slow mail server takes 2 s per message, then restart at once.
for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('graceful shutdown of next start', backend),
    () => {
      let data: SiteData | undefined;
      const servers: ProductionServer[] = [];
      afterAll(async () => {
        for (const server of servers) await server.stop('SIGKILL');
        await data?.dispose();
      });

      it(`e-mails each of ${ENQUIRIES} pending enquiries exactly once across a SIGTERM and an immediate restart`, async () => {
        data = await seedSiteData(backend.kind, ENQUIRIES);
        const smtp = await startSmtpServer({ delayMs: 2_000 });
        const env: Record<string, string> = { ...data.env, SMTP_URL: smtp.url };
        const first = await startProductionServer({ env });
        servers.push(first);
        await until(async () => smtp.received.length >= 2, 60_000);
        await new Promise((resolve) => setTimeout(resolve, 700)); // signal in the middle of the 3rd send

        const signalled = Date.now();
        const code = await first.stop('SIGTERM');
        const exitMs = Date.now() - signalled;
        const sentBefore = smtp.received.length;
        expect(events(first, 'server.stopped')).toHaveLength(1);
        if (backend.kind === 'pglite') {
          // The lock and the socket are gone: nothing for the restart to wait out.
          await expect(access(path.join(env.DATA_DIR!, '.pglite.lock'))).rejects.toThrow();
          await expect(
            access(path.join(env.DATA_DIR!, 'socket', '.s.PGSQL.5432')),
          ).rejects.toThrow();
        }

        const restarted = Date.now();
        const second = await startProductionServer({ env });
        servers.push(second);
        await until(async () => events(second, 'database.ready').length === 1, 30_000);
        const readyMs = Date.now() - restarted;
        await until(
          async () =>
            smtp.received.length >= ENQUIRIES &&
            events(second, 'job.sent').length >= ENQUIRIES - sentBefore,
          120_000,
        );
        await new Promise((resolve) => setTimeout(resolve, 2_500)); // a duplicate would arrive within one more send

        const ids = smtp.received.map((mail) => mail.parsed.messageId);
        const distinct = new Set(ids).size;
        console.log(
          `shutdown [${backend.kind}]: ${ENQUIRIES} enquiries: ${distinct} e-mailed, ${ENQUIRIES - distinct} lost, ` +
            `${ids.length - distinct} duplicated; exit ${code} after ${exitMs} ms (${sentBefore} sent before), ` +
            `restart ready with the database after ${readyMs} ms`,
        );
        expect(code).toBe(143);
        expect(exitMs).toBeLessThan(30_000);
        expect(distinct).toBe(ENQUIRIES);
        expect(ids).toHaveLength(ENQUIRIES);
        if (backend.kind === 'pglite') expect(readyMs).toBeLessThan(10_000);

        if (backend.kind === 'pglite') {
          // The `leads` CLI: every leads command while the site runs on PGlite.
          const timings: string[] = [];
          const timed = async (...args: string[]) => {
            const started = Date.now();
            const result = await leads(env, ...args);
            timings.push(`${args[0]} ${Date.now() - started} ms`);
            return result;
          };
          const list = await timed('list');
          expect(list.stdout.trim().split('\n')).toHaveLength(ENQUIRIES);
          expect(list.stdout).toContain('\temail sent');
          const csv = (await timed('export', '--format', 'csv')).stdout;
          expect(csv.split('\r\n').filter(Boolean)).toHaveLength(ENQUIRIES + 1);
          expect((await timed('retry')).stdout).toContain('Re-queued 0 failed notifications.');
          expect((await timed('purge')).stdout).toContain(
            'Deleted 0 enquiries older than 365 days (spam: 30 days).',
          );
          expect((await timed('erase', 'asha.rao@hospital.example')).stdout).toContain(
            `Erased ${ENQUIRIES} enquiries and 0 demos: request PR-`,
          );
          expect((await timed('list')).stdout.trim()).toBe('');
          const health = await fetch(`${second.url}/api/health`);
          expect(health.status).toBe(200);
          console.log(`leads CLI while the site runs on PGlite: ${timings.join(', ')}`);
        }

        // Liveness without I/O, and no metrics without METRICS_TOKEN.
        expect(await (await fetch(`${second.url}/api/health/live`)).json()).toEqual({
          status: 'ok',
        });
        expect((await fetch(`${second.url}/api/metrics`)).status).toBe(404);
        await second.stop('SIGINT');
        expect(await second.exited).toBe(130);
        await smtp.close();
      });
    },
  );
}
