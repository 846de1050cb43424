import '@test/quiet-logs';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { backends, backendTitle } from '@test/databases';
import { until, validValues } from '@test/enquiry';
import { freePort, startSmtpServer } from '@test/smtp';
import { postEnquiry } from '@test/contact-form';
import { logLines, startProductionServer, type ProductionServer } from '@test/next-server';
import { seedSiteData, type SiteData } from '@test/site-data';

/**
 * The database's address as the site sees it: a TCP relay to the test PostgreSQL on `port`, which
 * refuses connections (database down) until `up()` and drops them all on `down()`.
 */
async function databaseAddress(target: URL, port: number) {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  return {
    async up() {
      server = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    },
    async down() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    },
  };
}

const postgres = backends.find((backend) => backend.kind === 'postgres')!;

// Recovery: the database is unreachable when the server starts, then comes up.
describe.skipIf(postgres.skipReason)(
  backendTitle('database down at start, then up', postgres),
  () => {
    let data: SiteData | undefined;
    let server: ProductionServer | undefined;
    let relay: Awaited<ReturnType<typeof databaseAddress>> | undefined;
    afterAll(async () => {
      await server?.stop('SIGKILL');
      await relay?.down();
      await data?.dispose();
    });

    it('says it could not save while down, then stores and e-mails without a restart', async () => {
      data = await seedSiteData('postgres', 0);
      const real = new URL(data.env.DATABASE_URL!);
      const port = await freePort();
      relay = await databaseAddress(real, port);
      const url = new URL(real);
      url.port = String(port);
      const smtp = await startSmtpServer();
      server = await startProductionServer({
        env: { ...data.env, DATABASE_URL: url.toString(), SMTP_URL: smtp.url },
      });

      const whileDown = await postEnquiry(server.url, {
        ...validValues,
        subject: 'While the database is down',
      });
      const health = await fetch(`${server.url}/api/health`);
      expect(whileDown.reference).toBeNull();
      expect(whileDown.message).toMatch(/could not save your enquiry/);
      expect(whileDown.html.includes('Thank you, your enquiry has been received')).toBe(false);
      expect(health.status).toBe(503);
      const failures = () =>
        logLines(server!.output()).filter((line) => line.event === 'database.unavailable');
      await until(async () => failures().length >= 2, 30_000);

      const upAt = Date.now();
      await relay.up();
      await until(
        async () => logLines(server!.output()).some((line) => line.event === 'database.ready'),
        60_000,
      );
      const readyMs = Date.now() - upAt;
      const afterUp = await postEnquiry(server.url, {
        ...validValues,
        subject: 'After the database came up',
      });
      expect(afterUp.reference).toMatch(/^NH-/);
      await until(async () => smtp.received.length === 1, 30_000);
      expect(smtp.received[0]!.parsed.subject).toContain('After the database came up');
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      console.log(
        `recovery: ${failures().length} logged attempts while down (retry delays ${failures()
          .map((line) => line.retryInMs)
          .join(
            ', ',
          )} ms), worker running ${readyMs} ms after the database came up, enquiry ${afterUp.reference} e-mailed without a restart`,
      );
      await server.stop();
      await smtp.close();
    });
  },
);
