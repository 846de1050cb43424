import '@test/quiet-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openDatabase } from '@/server/platform/db/client';
import { auditLog } from '@/server/platform/audit/schema';
import { submitEnquiry } from '@/server/features/contact/submit';
import { deps, formData, request } from '@test/enquiry';

const run = promisify(execFile);

/** Runs `npm run leads -- …args` against `dataDir`, as an operator would. */
async function leads(dataDir: string, ...args: string[]) {
  return run('npm', ['run', '--silent', 'leads', '--', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
  });
}

describe('npm run leads (PGlite)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nirmaya-cli-'));
    const database = await openDatabase({ dataDir });
    await database.migrate();
    await submitEnquiry(
      formData({ email: 'asha@hospital.example', subject: '=cmd()' }),
      request(),
      deps(database.db),
    );
    await submitEnquiry(formData({ email: 'ravi@clinic.example' }), request(), deps(database.db));
    await submitEnquiry(
      formData({ email: 'bot@spam.example', message: 'cheap pills' }, { honeypot: 'x' }),
      request(),
      deps(database.db),
    );
    await database.close();
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('lists, exports, erases by e-mail, retries and purges', async () => {
    const list = await leads(dataDir, 'list');
    expect(list.stdout.trim().split('\n')).toHaveLength(2);
    expect(list.stdout).toContain('pending');
    // One line per enquiry: reference, time, name, then the other one-line fields, delivery.
    const [reference, received, ...columns] = list.stdout.split('\n')[0]!.split('\t');
    expect(reference).toMatch(/^NH-/);
    expect(new Date(received!).toISOString()).toBe(received);
    expect(columns).toEqual([
      'Asha Rao',
      'ravi@clinic.example',
      'City General Hospital',
      'Laboratory module',
      'email pending',
    ]);

    const csv = (await leads(dataDir, 'export', '--format', 'csv')).stdout;
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(3);
    expect(csv).toContain(`"'=cmd()"`);

    expect((await leads(dataDir, 'erase', 'ASHA@hospital.example')).stdout).toMatch(
      /^Erased 1 enquiries and 0 demos: request PR-[0-9A-Z]{10}, the address is suppressed\.$/m,
    );
    expect((await leads(dataDir, 'export', '--format', 'csv')).stdout).not.toContain('asha@');
    expect((await leads(dataDir, 'retry')).stdout).toContain('Re-queued 0 failed notifications.');
    expect((await leads(dataDir, 'purge')).stdout).toContain(
      'Deleted 0 enquiries older than 365 days (spam: 30 days).',
    );
  }, 120_000);

  it('shows the readiness details /api/health keeps for the METRICS_TOKEN bearer', async () => {
    const { stdout } = await leads(dataDir, 'health');
    const details = JSON.parse(stdout) as {
      status: string;
      delivery: { pending: number; quarantined: number };
      privacy: { open: number };
    };
    console.log(`leads health: ${stdout.replace(/\s+/g, ' ')}`);
    expect(details.status).toBe('ok');
    expect(details.delivery.quarantined).toBe(1);
    expect(details.delivery.pending).toBeGreaterThan(0);
    expect(details.privacy.open).toBe(0);
  }, 60_000);

  it('lists quarantined enquiries for review and releases one once', async () => {
    const spam = (await leads(dataDir, 'spam')).stdout.trim().split('\n');
    expect(spam).toHaveLength(1);
    const [reference, , reason, email] = spam[0]!.split('\t');
    expect([reason, email]).toEqual(['honeypot', 'bot@spam.example']);
    expect(spam[0]).not.toContain('cheap pills');
    expect((await leads(dataDir, 'spam', '--message')).stdout).toContain('cheap pills');
    expect((await leads(dataDir, 'list')).stdout).not.toContain('bot@spam.example');
    expect((await leads(dataDir, 'list', '--include-spam')).stdout).toMatch(
      /bot@spam\.example.*\tspam/,
    );

    expect((await leads(dataDir, 'release', reference!)).stdout).toContain(`Released ${reference}`);
    expect((await leads(dataDir, 'release', reference!)).stdout).toContain('nothing queued');
    expect((await leads(dataDir, 'spam')).stdout).toBe('');
    expect((await leads(dataDir, 'list')).stdout).toMatch(/bot@spam\.example.*\temail pending/);
    await expect(leads(dataDir, 'release', 'NH-0000000000')).rejects.toThrow(
      /No enquiry NH-0000000000/,
    );
  }, 120_000);

  it('manages console operators, and writes the audit log as cli', async () => {
    expect((await leads(dataDir, 'operators', 'add', 'Sam@Nirmaya.example')).stdout).toContain(
      'sam@nirmaya.example: added',
    );
    expect(
      (await leads(dataDir, 'operators', 'role', 'sam@nirmaya.example', '--role', 'admin')).stdout,
    ).toContain('updated');
    expect((await leads(dataDir, 'operators', 'list')).stdout).toMatch(
      /^sam@nirmaya\.example\tadmin\t/m,
    );
    await expect(leads(dataDir, 'operators', 'remove', 'sam@nirmaya.example')).rejects.toThrow(
      /last admin/,
    );
    await expect(
      leads(dataDir, 'operators', 'add', 'x@y.example', '--role', 'root'),
    ).rejects.toThrow(/Allowed choices are sales, admin/);
    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db
        .select({ actor: auditLog.actor, action: auditLog.action })
        .from(auditLog);
      // The operator changes here (and the exports, retry and release of the tests before), as cli.
      expect(new Set(rows.map((row) => row.actor))).toEqual(new Set(['cli']));
      expect(rows.map((row) => row.action)).toEqual(
        expect.arrayContaining(['operator-add', 'operator-role']),
      );
    } finally {
      await database.close();
    }
  }, 120_000);

  it('refuses an unknown export format', async () => {
    await expect(leads(dataDir, 'export', '--format', 'xlsx')).rejects.toThrow(
      /Allowed choices are csv/,
    );
  }, 60_000);
});
