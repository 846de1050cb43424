import '@test/quiet-logs';
import { afterAll, describe, expect, it } from 'vitest';
import { isNotNull } from 'drizzle-orm';
import { openDatabase } from '@/server/platform/db/client';
import { jobs } from '@/server/delivery/queue/schema';
import { backends } from '@test/databases';
import { until } from '@test/enquiry';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { logLines, startProductionServer, type ProductionServer } from '@test/next-server';
import { seedSiteData, type SiteData } from '@test/site-data';

const postgres = backends.find((backend) => backend.kind === 'postgres')!;

/** How many copies of each notification the mail server accepted, by Message-ID. */
function copies(smtp: TestSmtpServer): number[] {
  const counts = new Map<string, number>();
  for (const mail of smtp.received)
    counts.set(mail.parsed.messageId!, (counts.get(mail.parsed.messageId!) ?? 0) + 1);
  return [...counts.values()];
}

/** The states of the seeded jobs, read with a handle of the test's own. */
async function jobStates(env: Record<string, string>) {
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR ?? '' });
  try {
    // The enquiries' jobs (each has its enquiry as owner), not e.g. tomorrow's spam digest.
    return await database.db.select().from(jobs).where(isNotNull(jobs.owner));
  } finally {
    await database.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(postgres.skipReason)('the job queue on two instances of one PostgreSQL', () => {
  let data: SiteData | undefined;
  const servers: ProductionServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop('SIGKILL');
    await data?.dispose();
  });

  it('sends each of 8 e-mails exactly once through a relay slower than half the lease (lease 5 s, 3 s a message)', async () => {
    const ENQUIRIES = 8;
    data = await seedSiteData('postgres', ENQUIRIES);
    const smtp = await startSmtpServer({ delayMs: 3_000 });
    const env = { ...data.env, SMTP_URL: smtp.url, OUTBOX_LEASE_SECONDS: '5' };
    const started = Date.now();
    const pair = await Promise.all([
      startProductionServer({ env }),
      startProductionServer({ env }),
    ]);
    servers.push(...pair);
    await until(async () => smtp.received.length >= ENQUIRIES, 120_000);
    const deliveredMs = Date.now() - started;
    await sleep(8_000); // a second copy would follow once a lease (5 s) ran out
    const perReference = copies(smtp);
    const sentBy = pair.map(
      (server) =>
        logLines(server.output()).filter(
          (line) => line.event === 'job.sent' && line.kind === 'enquiry.email',
        ).length,
    );
    const lost = logLines(pair.map((server) => server.output()).join('\n')).filter(
      (line) => line.event === 'job.claim_lost',
    );
    console.log(
      `slow relay: ${ENQUIRIES} enquiries, ${perReference.length} e-mailed, copies per reference ` +
        `[${perReference.join(', ')}], sent by the instances ${sentBy.join(' + ')}, ` +
        `${lost.length} claims lost, all delivered ${deliveredMs} ms after start`,
    );
    expect(perReference).toHaveLength(ENQUIRIES);
    expect(perReference.every((n) => n === 1)).toBe(true);
    expect(lost).toHaveLength(0);
    const rows = await jobStates(env);
    expect(rows.every((job) => job.status === 'sent' && job.attempts === 1)).toBe(true);
    for (const server of servers.splice(0)) await server.stop('SIGTERM');
    await smtp.close();
  });

  it('takes over the jobs of an instance killed with SIGKILL within 60 s, with default settings', async () => {
    const ENQUIRIES = 4;
    data = await seedSiteData('postgres', ENQUIRIES);
    // Slow enough that the first instance still holds its claims when it is killed.
    const smtp = await startSmtpServer({ delayMs: 20_000 });
    const env = { ...data.env, SMTP_URL: smtp.url };
    const first = await startProductionServer({ env });
    servers.push(first);
    await until(
      async () => (await jobStates(env)).filter((job) => job.status === 'sending').length >= 2,
      30_000,
    );
    const second = await startProductionServer({ env });
    servers.push(second);
    await until(
      async () => (await jobStates(env)).every((job) => job.status !== 'pending'),
      30_000,
    );
    const held = (await jobStates(env)).filter((job) => job.status === 'sending').length;
    smtp.setDelay(0);
    const killed = Date.now();
    await first.stop('SIGKILL');
    await until(async () => (await jobStates(env)).every((job) => job.status === 'sent'), 90_000);
    const takeoverMs = Date.now() - killed;
    await until(async () => copies(smtp).length >= ENQUIRIES, 30_000);
    const perReference = copies(smtp);
    console.log(
      `kill -9 of one of two instances: ${held} jobs in flight at the kill, all ${ENQUIRIES} sent ` +
        `${(takeoverMs / 1000).toFixed(1)} s after it; copies per reference [${perReference.join(', ')}] ` +
        `(a send cut off by the kill may arrive twice: delivery is at least once)`,
    );
    expect(takeoverMs).toBeLessThan(60_000);
    expect(perReference).toHaveLength(ENQUIRIES);
    for (const server of servers.splice(0)) await server.stop('SIGTERM');
    await smtp.close();
  });
});

describe('the job queue on PGlite', () => {
  let data: SiteData | undefined;
  const servers: ProductionServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop('SIGKILL');
    await data?.dispose();
  });

  it('sends the claims of a process killed with SIGKILL within 30 s of its restart', async () => {
    const ENQUIRIES = 4;
    data = await seedSiteData('pglite', ENQUIRIES);
    const smtp = await startSmtpServer({ delayMs: 20_000 });
    const env = { ...data.env, SMTP_URL: smtp.url };
    const first = await startProductionServer({ env });
    servers.push(first);
    await until(
      async () =>
        logLines(first.output()).filter((line) => line.event === 'queue.started').length > 0,
      30_000,
    );
    await sleep(2_000); // both lanes are inside a 20 s send
    await first.stop('SIGKILL');
    smtp.setDelay(0);
    const restarted = Date.now();
    const second = await startProductionServer({ env });
    servers.push(second);
    await until(
      async () =>
        logLines(second.output()).filter(
          (line) => line.event === 'job.sent' && line.kind === 'enquiry.email',
        ).length >= ENQUIRIES,
      60_000,
    );
    const afterRestartMs = Date.now() - restarted;
    const released = logLines(second.output()).find((line) => line.event === 'job.claims_released');
    console.log(
      `PGlite restart after kill -9: ${String(released?.count ?? 0)} claims handed back at start, ` +
        `all ${ENQUIRIES} e-mailed ${(afterRestartMs / 1000).toFixed(1)} s after the restart; ` +
        `copies per reference [${copies(smtp).join(', ')}]`,
    );
    expect(released?.count).toBe(2);
    expect(afterRestartMs).toBeLessThan(30_000);
    await second.stop('SIGTERM');
    await smtp.close();
  });
});
