import '@test/quiet-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq, or, sql } from 'drizzle-orm';
import { parseWeeklyHours } from '@/lib/demo/hours';
import { openDatabase } from '@/server/platform/db/client';
import { demoBookings } from '@/server/features/demos/schema';
import { jobs as jobTable } from '@/server/delivery/queue/schema';
import { leads } from '@/server/features/contact/schema';
import { submitEnquiry } from '@/server/features/contact/submit';
import { bookDemo } from '@/server/features/demos/commands/book';
import type { BookingSettings } from '@/server/features/demos/types';
import { freeSlots } from '@/server/features/demos/views/slots';
import { deps, formData, request } from '@test/enquiry';

const run = promisify(execFile);
const hosts = [
  { name: 'Meera Iyer', email: 'meera@nirmaya.example', meetingUrl: 'https://meet.example/m' },
];
const webhook = 'https://crm.example/hooks/nirmaya';

/** Runs `npm run leads -- …args` against `dataDir` with demo booking on, as an operator would. */
async function leadsCli(dataDir: string, ...args: string[]) {
  return run('npm', ['run', '--silent', 'leads', '--', ...args], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'silent',
      DEMO_HOSTS: JSON.stringify(hosts),
      SITE_URL: 'https://nirmaya.example',
      DEMO_TIMEZONE: 'Asia/Kolkata',
      WEBHOOK_URLS: webhook,
      WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
    },
  });
}

describe('npm run leads -- demos / cancel (PGlite)', () => {
  let dataDir: string;
  let reference: string;
  let start: number;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-cli-demos-'));
    const database = await openDatabase({ dataDir });
    await database.migrate();
    const settings: BookingSettings = {
      rules: {
        timeZone: 'Asia/Kolkata',
        hours: parseWeeklyHours('Mon-Sun 00:00-24:00'),
        slotMinutes: 45,
        bufferMinutes: 15,
        noticeHours: 1,
        maxPerDay: 4,
        closedDates: [],
        bookingDays: 2,
      },
      hosts: hosts.map((host) => ({ ...host, busyFeeds: [] })),
      reminderHours: 24,
    };
    const state = await submitEnquiry(
      formData({ email: 'asha@hospital.example', organization: 'City General' }),
      request(),
      deps(database.db),
    );
    reference = state.status === 'accepted' ? state.reference : '';
    await submitEnquiry(formData({ email: 'ravi@clinic.example' }), request(), deps(database.db));
    const [lead] = await database.db.select().from(leads).where(eq(leads.reference, reference));
    start = (await freeSlots(database.db, settings))[0]!.start;
    expect((await bookDemo(database.db, settings, lead!.id, start)).outcome).toBe('booked');
    await database.close();
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('lists the upcoming demo, cancels it as the visitor would, and refuses what it cannot cancel', async () => {
    const list = await leadsCli(dataDir, 'demos');
    const utc = new Date(start).toISOString();
    const istTime = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Kolkata',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(start);
    expect(list.stdout.trim().split('\n')).toHaveLength(1);
    const columns = list.stdout.trim().split('\t');
    expect(columns[0]).toBe(reference);
    expect(columns[1]).toMatch(new RegExp(`, ${istTime} IST$`));
    expect(columns.slice(2)).toEqual([
      utc,
      'Meera Iyer <meera@nirmaya.example>',
      'Asha Rao',
      'asha@hospital.example',
      'City General',
    ]);
    expect(list.stderr).toContain('1 upcoming demo');
    console.log(`leads demos: ${list.stdout.trim()}`);

    const cancelled = await leadsCli(dataDir, 'cancel', reference.toLowerCase());
    console.log(`leads cancel: ${cancelled.stdout.trim()}`);
    expect(cancelled.stdout).toContain(`Cancelled the demo of ${reference} on `);
    expect(cancelled.stdout).toContain(
      'Cancellations to asha@hospital.example and meera@nirmaya.example are queued, and the demo.cancelled event to 1 webhook endpoint(s)',
    );
    expect((await leadsCli(dataDir, 'demos')).stdout).toBe('');
    await expect(leadsCli(dataDir, 'cancel', reference)).rejects.toThrow(
      new RegExp(`${reference} has no upcoming demo to cancel`),
    );
    await expect(leadsCli(dataDir, 'cancel', 'NH-0000000000')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No enquiry NH-0000000000.'),
    });

    const database = await openDatabase({ dataDir });
    try {
      const [booking] = await database.db.select().from(demoBookings);
      expect([booking!.status, booking!.sequence]).toEqual(['cancelled', 1]);
      // The booking's jobs: its e-mails (`demo.mail`) and its webhook events (`demo.webhook`).
      const jobs = await database.db
        .select({ key: jobTable.dedupeKey })
        .from(jobTable)
        .where(
          or(
            eq(sql`${jobTable.payload}->>'bookingId'`, booking!.id),
            eq(sql`${jobTable.payload}#>>'{event,data,bookingId}'`, booking!.id),
          ),
        );
      expect(jobs.map((job) => job.key.replace(booking!.id, 'ID')).sort()).toEqual(
        [
          'demo.mail:host-cancel:ID:1',
          'demo.mail:host:ID:0',
          'demo.mail:visitor-cancel:ID:1',
          'demo.mail:visitor:ID:0',
          `demo.webhook:${webhook}#demo.cancelled:ID:1`,
        ].sort(),
      );
    } finally {
      await database.close();
    }
  }, 180_000);
});
