import '@test/quiet-logs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testBookingSettings } from '@test/demo-settings';
import { eq } from 'drizzle-orm';
import { auditLog } from '../../platform/audit/schema';
import { demoBookings } from '../demos/schema';
import { jobs } from '../../delivery/queue/schema';
import { leads } from '../contact/schema';
import { operatorSessions, operators, signInTokens } from './schema';
import { rateLimits } from '../../platform/rate-limit/schema';
import { submitEnquiry } from '../contact/submit';
import { getConsoleEnv as getEnv } from './env';
import { bookDemo } from '../demos/commands/book';
import { addDemoLead } from '@test/demo-lead';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { deps, formData, request, TEST_SECRET } from '@test/enquiry';
import { countLeads, listLeads } from './inbox';
import { acknowledgeDeliveries, retryDeliveries } from '../../wiring/delivery-retry';
import { authFor, type ConsoleAuth } from './auth';
import { CLI_ACTOR, listAudit, type Actor } from '../../platform/audit';
import { cancelDemoAs, exportEnquiries, releaseEnquiries, rescheduleDemoAs } from './commands';
import { addOperator, changeOperatorRole, ensureAdmins, removeOperator } from './operators';
import { requestSignIn, sendSignInLink, signInJob } from './sign-in';
import { getSiteSecret } from '../../platform/security/site-secret';
import { unreviewedSpamCount, viewEnquiry } from './views';
import { scheduleSpamDigest, sendSpamDigest } from './spam-digest';
import type { SendMailOptions } from 'nodemailer';

const env = getEnv({
  FORM_SECRET: TEST_SECRET,
  ADMIN_EMAILS: 'Boss@Nirmaya.example',
  SITE_URL: 'http://localhost:3000',
  SIGN_IN_MAX: '3',
} as unknown as NodeJS.ProcessEnv);
const admin: Actor = { email: 'boss@nirmaya.example', role: 'admin' };
const settings = testBookingSettings();
/** Thursday 5 March 2026, 05:30 IST: times are offered from Friday 10:00 IST (04:30Z), hourly. */
const demoNow = Date.parse('2026-03-05T00:00:00Z');
const friday10 = Date.parse('2026-03-06T04:30:00Z');

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('console services', backend), () => {
    let database: TestDatabase;
    let auth: ConsoleAuth;
    const links: { email: string; url: string }[] = [];
    beforeAll(async () => {
      database = await openTestDatabase(backend.kind);
      auth = await authFor({ db: database.db, env, baseURL: 'https://console.nirmaya.example' });
    });
    afterAll(() => database?.dispose());
    beforeEach(async () => {
      const { db } = database;
      for (const table of [
        jobs,
        leads,
        rateLimits,
        auditLog,
        signInTokens,
        operatorSessions,
        operators,
      ])
        await db.delete(table);
      links.length = 0;
      await ensureAdmins(db, env.ADMIN_EMAILS);
      // Made an admin from ADMIN_EMAILS: its own audit row (sign-in.test.ts), not these tests'.
      await db.delete(auditLog);
    });

    /** Asks for a sign-in link, then runs the queued sign-in job as the worker would. */
    const signIn = async (email: string, client = '192.0.2.1') => {
      const answer = await requestSignIn({ db: database.db, env }, email, client);
      const send = sendSignInLink({
        db: database.db,
        auth: async () => auth,
        secret: () => getSiteSecret(database.db, env.FORM_SECRET),
        send: async (mail) => {
          links.push({ email: String(mail.to), url: /(https:\S+)/.exec(String(mail.text))![1]! });
        },
        from: 'site@nirmaya.example',
        origin: 'https://console.nirmaya.example',
      });
      for (const job of await database.db
        .select()
        .from(jobs)
        .where(eq(jobs.kind, signInJob.name))) {
        await send({ payload: signInJob.payload.parse(job.payload) } as never);
        await database.db.delete(jobs).where(eq(jobs.id, job.id));
      }
      return answer;
    };

    it('sends an operator one single-use link, a stranger the same answer and nothing', async () => {
      expect(await signIn('stranger@elsewhere.example')).toBe('sent');
      expect(links).toEqual([]);
      expect(await signIn('BOSS@nirmaya.example', '192.0.2.2')).toBe('sent');
      expect(links).toHaveLength(1);
      const url = new URL(links[0]!.url);
      expect(url.origin).toBe('https://console.nirmaya.example');
      const token = url.searchParams.get('token')!;
      // Stored hashed: the token itself is nowhere in the table.
      const stored = await database.db.select().from(signInTokens);
      expect(stored.map((row) => row.identifier)).not.toContain(token);
      expect(JSON.stringify(stored)).not.toContain(token);

      const first = await auth.api.magicLinkVerify({
        query: { token },
        headers: new Headers(),
        asResponse: true,
      });
      const cookie = first.headers
        .getSetCookie()
        .find((c) => c.startsWith('__Host-nirmaya-console.session='));
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/Secure/i);
      expect(cookie).toMatch(/SameSite=Strict/i);
      expect(cookie).toMatch(/Max-Age=43200/);
      expect(cookie).not.toMatch(/Domain=/i);

      const second = await auth.api.magicLinkVerify({
        query: { token, callbackURL: '/admin', errorCallbackURL: '/admin/sign-in?link=failed' },
        headers: new Headers(),
        asResponse: true,
      });
      expect(second.headers.getSetCookie().join()).not.toContain('nirmaya-console.session=');
      expect(second.headers.get('location')).toContain('/admin/sign-in?link=failed');

      const audit = await listAudit(database.db, { action: 'sign-in' });
      expect(audit.rows.map((row) => row.actor)).toEqual(['boss@nirmaya.example']);

      // A session unused for 12 hours is over (its expiry is pushed back only by use).
      const idle = await database.db.select().from(operatorSessions);
      expect(idle).toHaveLength(1);
      const expiresIn = idle[0]!.expiresAt.getTime() - idle[0]!.createdAt.getTime();
      expect(Math.round(expiresIn / 60_000)).toBe(12 * 60);

      // The session works, and ends when the operator is removed.
      const sessionCookie = cookie!.split(';')[0]!;
      const session = await auth.api.getSession({
        headers: new Headers({ cookie: sessionCookie }),
      });
      expect(session?.user.email).toBe('boss@nirmaya.example');
      expect((session?.user as { role?: string }).role).toBe('admin');
      await database.db.update(operatorSessions).set({ expiresAt: new Date(Date.now() - 1_000) });
      expect(
        await auth.api.getSession({ headers: new Headers({ cookie: sessionCookie }) }),
      ).toBeNull();
    });

    it('limits sign-in requests per address and per client', async () => {
      for (let i = 0; i < 3; i++)
        expect(await signIn('boss@nirmaya.example', `198.51.100.${i}`)).toBe('sent');
      expect(await signIn('boss@nirmaya.example', '198.51.100.9')).toBe('limited');
      for (let i = 0; i < 3; i++)
        expect(await signIn(`nobody${i}@x.example`, '203.0.113.7')).toBe('sent');
      expect(await signIn('other@x.example', '203.0.113.7')).toBe('limited');
      expect(await signIn('not an address', '203.0.113.8')).toBe('invalid');
      expect(links).toHaveLength(3);
    });

    it('revokes sessions of a removed operator; keeps the last admin', async () => {
      expect(await addOperator(database.db, admin, 'Sam@Nirmaya.example', 'sales')).toBe('added');
      await signIn('sam@nirmaya.example');
      const token = new URL(links[0]!.url).searchParams.get('token')!;
      const response = await auth.api.magicLinkVerify({
        query: { token },
        headers: new Headers(),
        asResponse: true,
      });
      const cookie = response.headers.getSetCookie()[0]!.split(';')[0]!;
      expect(await auth.api.getSession({ headers: new Headers({ cookie }) })).not.toBeNull();
      expect(await changeOperatorRole(database.db, admin, 'sam@nirmaya.example', 'admin')).toBe(
        'updated',
      );
      expect(await removeOperator(database.db, admin, 'sam@nirmaya.example')).toBe('removed');
      expect(await auth.api.getSession({ headers: new Headers({ cookie }) })).toBeNull();
      expect(await removeOperator(database.db, admin, 'boss@nirmaya.example')).toBe('last-admin');
      expect(await changeOperatorRole(database.db, admin, 'boss@nirmaya.example', 'sales')).toBe(
        'last-admin',
      );
      const actions = (await listAudit(database.db, {})).rows.map((row) => row.action);
      expect(actions).toEqual(['operator-remove', 'operator-role', 'sign-in', 'operator-add']);
    });

    it('queues one spam digest a day, sent to admins only when spam waits', async () => {
      const { db } = database;
      const at = new Date('2026-03-05T05:00:00Z');
      expect(await scheduleSpamDigest(db, 3, at)).toBe(true);
      expect(await scheduleSpamDigest(db, 3, new Date('2026-03-05T06:00:00Z'))).toBe(false);
      const [job] = await db.select().from(jobs).where(eq(jobs.kind, 'console.spam-digest'));
      expect(job?.runAt.toISOString()).toBe('2026-03-06T03:00:00.000Z');

      const sent: SendMailOptions[] = [];
      const digest = sendSpamDigest(db, async (message) => void sent.push(message), {
        from: 'site@nirmaya.example',
        spamPageUrl: 'https://nirmaya.example/admin/spam',
      });
      const run = () =>
        digest({ id: 'x', kind: 'console.spam-digest', payload: { day: '2026-03-06' } } as never);
      expect(await run()).toEqual({ skipped: 'no spam to review' });
      await submitEnquiry(
        formData({ email: 'bot@spam.example' }, { honeypot: 'x' }),
        request(),
        deps(db),
      );
      await addOperator(db, admin, 'sam@nirmaya.example', 'sales');
      await run();
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        to: ['boss@nirmaya.example'],
        subject: '1 enquiry held as spam to review',
      });
      expect(String(sent[0]!.text)).toContain('https://nirmaya.example/admin/spam');
      expect(String(sent[0]!.text)).not.toContain('bot@spam.example');
    });

    it('reschedules and cancels a demo as an operator, with audit rows', async () => {
      const { db } = database;
      await db.delete(demoBookings);
      const leadId = await addDemoLead(db, 1);
      const booked = await bookDemo(db, settings, leadId, friday10, demoNow);
      expect(booked.outcome).toBe('booked');
      expect(await countLeads(db, { hasDemo: true })).toBe(1);
      const ref = 'NH-TEST00001';
      expect(await rescheduleDemoAs(db, admin, settings, ref, friday10 + 3_600_000, demoNow)).toBe(
        'rescheduled',
      );
      expect(await rescheduleDemoAs(db, admin, settings, ref, friday10 + 1, demoNow)).toBe(
        'slot-gone',
      );
      expect((await cancelDemoAs(db, CLI_ACTOR, settings, ref, demoNow)).outcome).toBe('cancelled');
      expect((await cancelDemoAs(db, CLI_ACTOR, settings, ref, demoNow)).outcome).toBe(
        'no-live-demo',
      );
      expect(await rescheduleDemoAs(db, admin, settings, 'NH-NOPE', friday10, demoNow)).toBe(
        'not-found',
      );
      const audit = (await listAudit(db, {})).rows.map((row) => [
        row.actor,
        row.action,
        row.subject,
      ]);
      expect(audit).toEqual([
        ['cli', 'cancel', ref],
        ['boss@nirmaya.example', 'reschedule', ref],
      ]);
      await db.delete(demoBookings);
    });

    it('filters and searches the inbox; release, retry, ack and export write the audit log', async () => {
      const submit = (
        values: Parameters<typeof formData>[0],
        extra?: Parameters<typeof formData>[1],
      ) => submitEnquiry(formData(values, extra), request(), deps(database.db));
      for (const outcome of [
        await submit({
          email: 'kiran@alpha.example',
          organization: 'Alpha Clinic',
          firstName: '=cmd',
        }),
        await submit({
          email: 'meera@beta.example',
          organization: 'Beta Hospital',
          subject: 'Pharmacy',
        }),
        await submit({ email: 'bot@spam.example' }, { honeypot: 'x' }),
      ])
        expect(outcome.status, JSON.stringify(outcome)).toBe('accepted');

      expect(await countLeads(database.db)).toBe(2);
      expect((await listLeads(database.db, { search: 'BETA' })).map((l) => l.email)).toEqual([
        'meera@beta.example',
      ]);
      expect((await listLeads(database.db, { search: 'kiran@' })).map((l) => l.email)).toEqual([
        'kiran@alpha.example',
      ]);
      expect(await countLeads(database.db, { search: '%' })).toBe(0);
      expect(await countLeads(database.db, { subject: 'Pharmacy' })).toBe(1);
      expect(await countLeads(database.db, { delivery: 'pending' })).toBe(2);
      expect(await countLeads(database.db, { hasDemo: true })).toBe(0);
      expect(await countLeads(database.db, { from: new Date(Date.now() + 60_000) })).toBe(0);
      const [kiran] = await listLeads(database.db, { search: 'kiran' });
      expect(await listLeads(database.db, { search: kiran!.reference.toLowerCase() })).toHaveLength(
        1,
      );

      expect(await unreviewedSpamCount(database.db)).toBe(1);
      const [spam] = await database.db.select().from(leads).where(eq(leads.verdict, 'spam'));
      const released = await releaseEnquiries(
        database.db,
        admin,
        [spam!.reference, spam!.reference, 'NH-NOPE'],
        { webhookUrls: [] },
      );
      expect([...released.values()]).toEqual(['released', 'not-found']);
      expect(await unreviewedSpamCount(database.db)).toBe(0);
      expect(await database.db.select().from(jobs).where(eq(jobs.owner, spam!.id))).toHaveLength(1);
      // A second release queues nothing more.
      await releaseEnquiries(database.db, CLI_ACTOR, [spam!.reference], { webhookUrls: [] });
      expect(await database.db.select().from(jobs).where(eq(jobs.owner, spam!.id))).toHaveLength(1);

      const [kiranRow] = await database.db
        .select({ id: leads.id })
        .from(leads)
        .where(eq(leads.reference, kiran!.reference));
      await database.db
        .update(jobs)
        .set({ status: 'failed', lastError: '550 mailbox unavailable' })
        .where(eq(jobs.owner, kiranRow!.id));
      expect(await countLeads(database.db, { delivery: 'failed' })).toBe(1);
      expect(await acknowledgeDeliveries(database.db, admin, kiran!.reference)).toBe(1);
      expect(await retryDeliveries(database.db, CLI_ACTOR, kiran!.reference)).toBe(1);
      expect(await countLeads(database.db, { delivery: 'failed' })).toBe(0);

      const csv = await exportEnquiries(database.db, admin, { search: 'alpha' }, 'search alpha');
      expect(csv.split('\r\n').filter(Boolean)).toHaveLength(2);
      expect(csv).toContain(`"'=cmd"`);

      const detail = await viewEnquiry(database.db, admin, kiran!.reference);
      expect(detail?.deliveries[0]).toMatchObject({ kind: 'enquiry.email', status: 'pending' });

      const audit = (await listAudit(database.db, {})).rows.map((row) => [
        row.actor,
        row.action,
        row.subject,
      ]);
      expect(audit).toEqual([
        ['boss@nirmaya.example', 'view', kiran!.reference],
        ['boss@nirmaya.example', 'export', null],
        ['cli', 'retry', kiran!.reference],
        ['boss@nirmaya.example', 'acknowledge', kiran!.reference],
        ['boss@nirmaya.example', 'release', spam!.reference],
      ]);
      expect((await listAudit(database.db, { query: 'cli' })).total).toBe(1);
    });
  });
}
