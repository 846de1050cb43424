import '@test/quiet-logs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { openSecondHandle } from '@test/databases';
import { difference, rowCounts } from '@test/row-counts';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { deps, formData, request, TEST_SECRET } from '@test/enquiry';
import { auditLog } from '../../platform/audit/schema';
import { listAudit, type Actor } from '../../platform/audit';
import { rateLimits } from '../../platform/rate-limit/schema';
import { getSiteSecret } from '../../platform/security/site-secret';
import { jobs } from '../../delivery/queue/schema';
import { createSmtpSender } from '../../delivery/email/transport';
import { privacyRequests } from '../privacy/schema';
import { submitEnquiry } from '../contact/submit';
import { leads } from '../contact/schema';
import { acknowledgeDeliveries, retryDeliveries } from '../../wiring/delivery-retry';
import { getConsoleEnv } from './env';
import { authFor, isFreshSignIn, sessionOperator, type ConsoleAuth } from './auth';
import { operatorSessions, operators, pendingActs, signInTokens } from './schema';
import { addOperator, changeOperatorRole, ensureAdmins, ADMIN_EMAILS_ACTOR } from './operators';
import {
  confirmSignIn,
  requestFreshSignIn,
  requestSignIn,
  sendSignInLink,
  signInJob,
} from './sign-in';
import { dropPendingAct, findPendingAct, PENDING_ACT_SECONDS, savePendingAct } from './pending-act';
import { addressHash, addressKeys } from '../../platform/people/address-hash';
import { suppress } from '../../platform/people/suppression';
import { suppressions } from '../../platform/people/schema';
import { withSuppressionGate } from '../../delivery/email/suppression-gate';
import { readInbox } from './inbox';
import { describeFilter } from '@/lib/console/inbox-filter';
import { viewEnquiry } from './views';

const env = getConsoleEnv({
  FORM_SECRET: TEST_SECRET,
  ADMIN_EMAILS: 'boss@nirmaya.example',
  SIGN_IN_MAX: '5',
  SITE_URL: 'https://console.nirmaya.example',
} as unknown as NodeJS.ProcessEnv);
const ORIGIN = 'https://console.nirmaya.example';
const boss: Actor = { email: 'boss@nirmaya.example', role: 'admin' };
const sam: Actor = { email: 'sam@nirmaya.example', role: 'sales' };

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('console sign-in and hardening', backend),
    () => {
      let database: TestDatabase;
      let auth: ConsoleAuth;
      let smtp: TestSmtpServer;
      beforeAll(async () => {
        database = await openTestDatabase(backend.kind);
        auth = await authFor({ db: database.db, env, baseURL: ORIGIN });
        smtp = await startSmtpServer();
      });
      afterAll(async () => {
        await smtp?.close();
        await database?.dispose();
      });
      beforeEach(async () => {
        const { db } = database;
        for (const table of [
          jobs,
          leads,
          rateLimits,
          signInTokens,
          suppressions,
          pendingActs,
          operatorSessions,
          operators,
        ])
          await db.delete(table);
        await ensureAdmins(db, env.ADMIN_EMAILS);
        await addOperator(db, boss, sam.email, 'sales');
        await db.delete(auditLog);
        smtp.received.length = 0;
        smtp.setDelay(0);
      });

      /** The sign-in job's handler, sending through the real SMTP server, at `now` (ms). */
      const handler = (now?: () => number) =>
        sendSignInLink({
          db: database.db,
          auth: async () => auth,
          secret: () => getSiteSecret(database.db, env.FORM_SECRET),
          send: createSmtpSender(smtp.url),
          from: 'site@nirmaya.example',
          origin: ORIGIN,
          now,
        });

      /** Runs every queued sign-in job once, as the worker would; returns what each did. */
      async function runSignInJobs(now?: () => number) {
        const rows = await database.db.select().from(jobs).where(eq(jobs.kind, signInJob.name));
        const results = [];
        for (const row of rows) {
          const payload = signInJob.payload.parse(row.payload);
          results.push(await handler(now)({ payload } as never));
          await database.db.delete(jobs).where(eq(jobs.id, row.id));
        }
        return results;
      }

      /** Signs `email` in through the link's confirmation POST; returns the session cookie. */
      async function signInAs(email: string): Promise<string> {
        await requestSignIn({ db: database.db, env }, email, '192.0.2.50');
        await runSignInJobs();
        const mail = smtp.received.at(-1)!;
        const url = new URL(/(https:\S+)/.exec(mail.parsed.text ?? '')![1]!);
        const response = await confirmSignIn(auth, url.searchParams.get('token')!);
        return response.headers.getSetCookie()[0]!.split(';')[0]!;
      }

      it('answers an operator before any mail, with the same writes as for a stranger', async () => {
        const { db } = database;
        smtp.setDelay(1_000);
        const timings: Record<string, number> = {};
        const writes: Record<string, Record<string, number>> = {};
        for (const [who, email, client] of [
          ['stranger', 'stranger@elsewhere.example', '198.51.100.1'],
          ['operator', 'boss@nirmaya.example', '198.51.100.2'],
        ] as const) {
          const before = await rowCounts(db);
          const started = performance.now();
          expect(await requestSignIn({ db, env }, email, client)).toBe('sent');
          timings[who] = performance.now() - started;
          // Answered, and the SMTP server has seen nothing: no mail is sent during the request.
          expect(smtp.received).toHaveLength(0);
          writes[who] = difference(before, await rowCounts(db));
        }
        console.log(
          `sign-in answer: operator ${timings.operator!.toFixed(1)} ms, stranger ${timings.stranger!.toFixed(1)} ms (relay takes 1000 ms)`,
        );
        expect(writes.operator).toEqual(writes.stranger);
        expect(writes.operator).toEqual({ jobs: 1, rate_limits: 2 });
        expect(timings.operator!).toBeLessThan(1_000);

        // The jobs hold no token and no address: only the address's keyed hash and an expiry.
        const queued = await db.select().from(jobs).where(eq(jobs.kind, signInJob.name));
        expect(queued).toHaveLength(2);
        expect(JSON.stringify(queued)).not.toMatch(/@|token/);
        expect(await db.select().from(signInTokens)).toHaveLength(0);

        const sending = performance.now();
        expect(await runSignInJobs()).toEqual([{ skipped: 'not an operator' }, undefined]);
        console.log(`the worker sent the link in ${(performance.now() - sending).toFixed(0)} ms`);
        expect(smtp.received).toHaveLength(1);
        expect(smtp.received[0]!.envelope.to).toEqual(['boss@nirmaya.example']);
        const link = new URL(/(https:\S+)/.exec(smtp.received[0]!.parsed.text ?? '')![1]!);
        expect(link.origin + link.pathname).toBe(`${ORIGIN}/admin/sign-in/confirm`);
        expect(await db.select().from(signInTokens)).toHaveLength(1);
      });

      it('retries a link only while it could be used, each time with a fresh token', async () => {
        const { db } = database;
        const asked = Date.now();
        await requestSignIn({ db, env }, 'boss@nirmaya.example', '192.0.2.9', new Date(asked));
        const [job] = await db.select().from(jobs).where(eq(jobs.kind, signInJob.name));
        const payload = signInJob.payload.parse(job!.payload);
        expect(payload.until).toBe(asked + 10 * 60_000);
        await smtp.close();
        await expect(handler()({ payload } as never)).rejects.toThrow();
        await smtp.listen();
        expect(await handler(() => asked + 10 * 60_000)({ payload } as never)).toEqual({
          skipped: 'sign-in link expired',
        });
        expect(smtp.received).toHaveLength(0);
        await handler(() => asked + 9 * 60_000)({ payload } as never);
        expect(smtp.received).toHaveLength(1);
        // The failed attempt's token and the sent one: two tokens, each made when its attempt ran.
        expect(await db.select().from(signInTokens)).toHaveLength(2);
      });

      it("the link's page signs nobody in; only the token's POST does, once", async () => {
        const { db } = database;
        await requestSignIn({ db, env }, 'boss@nirmaya.example', '192.0.2.10');
        await runSignInJobs();
        const link = new URL(/(https:\S+)/.exec(smtp.received[0]!.parsed.text ?? '')![1]!);
        expect(link.pathname).toBe('/admin/sign-in/confirm');
        expect(await db.select().from(operatorSessions)).toHaveLength(0);
        const token = link.searchParams.get('token')!;
        // A place to return to that is no pending act's id is not followed: the inbox instead.
        const first = await confirmSignIn(auth, token, '/admin/operators?email=a%40b.example');
        expect(first.status).toBe(302);
        expect(first.headers.get('location')).toBe(`${ORIGIN}/admin`);
        const cookie = first.headers
          .getSetCookie()
          .find((c) => c.includes('nirmaya-console.session='));
        expect(cookie).toMatch(/SameSite=Strict/i);
        expect(await db.select().from(operatorSessions)).toHaveLength(1);
        const again = await confirmSignIn(auth, token);
        expect(again.headers.get('location')).toContain('/admin/sign-in?link=failed');
        expect(again.headers.getSetCookie().join()).not.toContain('nirmaya-console.session=');
      });

      it("a stranger-asked link for the admin lands on the console's home with nothing filled", async () => {
        const { db } = database;
        // The sign-in form takes no place to return to: the stranger's request names none.
        expect(await requestSignIn({ db, env }, 'boss@nirmaya.example', '203.0.113.66')).toBe(
          'sent',
        );
        const [job] = await db.select().from(jobs).where(eq(jobs.kind, signInJob.name));
        expect(signInJob.payload.parse(job!.payload).pending).toBeUndefined();
        await runSignInJobs();
        const text = smtp.received[0]!.parsed.text ?? '';
        const link = new URL(/(https:\S+)/.exec(text)![1]!);
        expect([...link.searchParams.keys()]).toEqual(['token']);
        expect(text).toContain(`It opens the console's home page (${ORIGIN}/admin).`);
        const response = await confirmSignIn(auth, link.searchParams.get('token')!);
        expect(response.headers.get('location')).toBe(`${ORIGIN}/admin`);
      });

      it('a fresh sign-in the admin asked for returns to their pending act, for them alone', async () => {
        const { db } = database;
        const ids = Object.fromEntries(
          (await db.select().from(operators)).map((row) => [row.email, row.id]),
        );
        const admin = { id: ids['boss@nirmaya.example']!, email: 'boss@nirmaya.example' };
        const t0 = new Date();
        const fields = {
          email: ['new@nirmaya.example'],
          role: ['admin'],
          $ACTION_ID_0123: [''],
          pending: ['an-earlier-act'],
        };
        expect(
          await requestFreshSignIn({ db, env }, admin, 'operator-add', fields, '192.0.2.70', t0),
        ).toBe('sent');
        // The act is kept server-side for the admin; the job names it by id only.
        const [job] = await db.select().from(jobs).where(eq(jobs.kind, signInJob.name));
        const pending = signInJob.payload.parse(job!.payload).pending!;
        expect(JSON.stringify(job!.payload)).not.toContain('new@nirmaya.example');
        await runSignInJobs();
        expect(smtp.received[0]!.envelope.to).toEqual(['boss@nirmaya.example']);
        const text = smtp.received[0]!.parsed.text ?? '';
        expect(text).toContain('add the operator new@nirmaya.example with the role admin');
        const link = new URL(/(https:\S+)/.exec(text)![1]!);
        expect(link.searchParams.get('pending')).toBe(pending);
        const response = await confirmSignIn(
          auth,
          link.searchParams.get('token')!,
          link.searchParams.get('pending')!,
        );
        expect(response.headers.get('location')).toBe(`${ORIGIN}/admin/pending/${pending}`);
        // The act as posted, Next.js's fields and a pending id dropped; for the admin alone.
        expect(await findPendingAct(db, pending, admin.id, t0)).toEqual({
          id: pending,
          act: 'operator-add',
          fields: { email: ['new@nirmaya.example'], role: ['admin'] },
        });
        expect(await findPendingAct(db, pending, ids['sam@nirmaya.example']!, t0)).toBeNull();
        const lapsed = new Date(t0.getTime() + PENDING_ACT_SECONDS * 1000);
        expect(await findPendingAct(db, pending, admin.id, lapsed)).toBeNull();
        // Once done, it is dropped for the admin; another operator cannot drop it.
        await dropPendingAct(db, pending, ids['sam@nirmaya.example']!);
        expect(await findPendingAct(db, pending, admin.id, t0)).not.toBeNull();
        await dropPendingAct(db, pending, admin.id);
        expect(await findPendingAct(db, pending, admin.id, t0)).toBeNull();

        // A job naming another operator's pending act mails a link to the home page.
        const samPending = await savePendingAct(db, ids['sam@nirmaya.example']!, 'erase', {
          reference: ['NIR-1'],
        });
        const secret = await getSiteSecret(db, env.FORM_SECRET);
        await handler()({
          payload: {
            emailHash: addressHash('boss@nirmaya.example', secret),
            until: Date.now() + 60_000,
            pending: samPending,
          },
        } as never);
        const crossed = smtp.received[1]!.parsed.text ?? '';
        expect(new URL(/(https:\S+)/.exec(crossed)![1]!).searchParams.has('pending')).toBe(false);
        expect(crossed).toContain("It opens the console's home page");
      });

      it("sends an operator's link as staff mail, past the suppression list", async () => {
        const { db } = database;
        const secret = await getSiteSecret(db, env.FORM_SECRET);
        await suppress(db, addressKeys('boss@nirmaya.example', secret), 'erase', new Date());
        const gated = sendSignInLink({
          db,
          auth: async () => auth,
          secret: () => getSiteSecret(db, env.FORM_SECRET),
          send: withSuppressionGate(createSmtpSender(smtp.url), {
            db,
            secret: () => getSiteSecret(db, env.FORM_SECRET),
          }),
          from: 'site@nirmaya.example',
          origin: ORIGIN,
        });
        await requestSignIn({ db, env }, 'boss@nirmaya.example', '192.0.2.71');
        const [job] = await db.select().from(jobs).where(eq(jobs.kind, signInJob.name));
        expect(await gated({ payload: signInJob.payload.parse(job!.payload) } as never)).toBe(
          undefined,
        );
        expect(smtp.received.map((mail) => mail.envelope.to)).toEqual([['boss@nirmaya.example']]);
      });

      it('ends a session 7 days after sign-in whatever its use; fresh means under 15 minutes', async () => {
        const { db } = database;
        const cookie = await signInAs('boss@nirmaya.example');
        const headers = new Headers({ cookie });
        const [session] = await db.select().from(operatorSessions);
        const signedIn = session!.createdAt.getTime();
        const at = (ms: number) => new Date(signedIn + ms);
        const minute = 60_000;
        const day = 24 * 60 * minute;
        const now = await sessionOperator(auth, db, headers, at(14 * minute));
        expect(now?.email).toBe('boss@nirmaya.example');
        expect(isFreshSignIn(now!, at(14 * minute))).toBe(true);
        expect(isFreshSignIn(now!, at(15 * minute))).toBe(false);
        expect(await sessionOperator(auth, db, headers, at(7 * day - minute))).not.toBeNull();
        expect(await sessionOperator(auth, db, headers, at(7 * day))).toBeNull();
        // Ended for good: the session row is gone, whatever the clock says next.
        expect(await db.select().from(operatorSessions)).toHaveLength(0);
        expect(await sessionOperator(auth, db, headers, at(minute))).toBeNull();
      });

      it('writes that a sales operator searched the inbox, never the text, folded per minute', async () => {
        const { db } = database;
        await submitEnquiry(
          formData({ email: 'kiran@alpha.example', organization: 'Alpha Clinic' }),
          request(),
          deps(db),
        );
        const t0 = new Date();
        /** The inbox's read for a search of `q` at `ms` after t0, described as the page does. */
        const search = (q: string, ms: number) =>
          readInbox(
            db,
            sam,
            { search: q },
            `${describeFilter({ q })} page=1`,
            new Date(t0.getTime() + ms),
          );
        const [rows, total] = await search('alpha', 0);
        expect([rows.length, total]).toEqual([1, 1]);
        await search('Kiran Rao', 30_000);
        await search('alpha', 61_000);
        await readInbox(
          db,
          sam,
          {},
          `${describeFilter({})} page=1`,
          new Date(t0.getTime() + 62_000),
        );
        const audit = await listAudit(db, { action: 'read' });
        expect(audit.rows.map((row) => [row.actor, row.subject, row.detail])).toEqual([
          ['sam@nirmaya.example', 'inbox', 'all page=1'],
          ['sam@nirmaya.example', 'inbox', 'q=(searched) page=1'],
          ['sam@nirmaya.example', 'inbox', 'q=(searched) page=1'],
        ]);
        expect(JSON.stringify(audit.rows)).not.toMatch(/alpha|kiran|rao/i);
      });

      it('shows a webhook by its host; only admins act on a privacy request’s deliveries', async () => {
        const { db } = database;
        const outcome = await submitEnquiry(
          formData({ email: 'kiran@alpha.example' }),
          request(),
          deps(db, {
            deliveries: { webhookUrls: ['https://hooks.example/capability/s3cr3t?key=abc'] },
          }),
        );
        expect(outcome.status).toBe('accepted');
        const [lead] = await db.select().from(leads);
        const detail = await viewEnquiry(db, sam, lead!.reference);
        const targets = detail!.deliveries.map((delivery) => delivery.target);
        expect(targets).toContain('hooks.example');
        expect(JSON.stringify(detail!.deliveries)).not.toContain('s3cr3t');

        const requestId = randomUUID();
        await db.delete(privacyRequests);
        await db.insert(privacyRequests).values({
          id: requestId,
          reference: 'PR-SALESNO',
          kind: 'grievance',
          linkNonce: randomUUID(),
          emailHash: 'hash',
          status: 'closed',
          requestedAt: new Date(),
          verifiedAt: new Date(),
          dueAt: new Date(Date.now() + 90 * 86_400_000),
          closedAt: new Date(),
        });
        await db.insert(jobs).values({
          id: randomUUID(),
          kind: 'privacy.reply',
          payload: {},
          dedupeKey: `privacy.reply:${requestId}`,
          owner: requestId,
          status: 'failed',
          lastError: 'Error 550',
        });
        expect(await retryDeliveries(db, sam, 'pr-salesno')).toBe('refused');
        expect(await acknowledgeDeliveries(db, sam, 'PR-SALESNO')).toBe('refused');
        expect(await retryDeliveries(db, sam)).toBe('refused');
        const [job] = await db.select().from(jobs).where(eq(jobs.owner, requestId));
        expect(job).toMatchObject({ status: 'failed', acknowledgedAt: null });
        expect(await acknowledgeDeliveries(db, boss, 'PR-SALESNO')).toBe(1);
        const refused = await listAudit(db, { action: 'refused' });
        expect(refused.rows.map((row) => [row.actor, row.subject, row.detail])).toEqual([
          ['sam@nirmaya.example', 'PR-SALESNO', 'acknowledge needs admin'],
          ['sam@nirmaya.example', 'PR-SALESNO', 'retry needs admin'],
        ]);
      });

      it('keeps one admin when two admins demote each other at once', async () => {
        const { db } = database;
        await addOperator(db, boss, 'ana@nirmaya.example', 'admin');
        const ana: Actor = { email: 'ana@nirmaya.example', role: 'admin' };
        const second = database.url ? await openSecondHandle(database.url) : undefined;
        const other = second?.db ?? db;
        try {
          await other.execute(sql`select 1`); // connected before the race
          const outcomes: string[] = [];
          // Repeated: on PostgreSQL the two transactions run on two connections at the same time.
          for (let round = 0; round < 10; round++) {
            await db
              .update(operators)
              .set({ role: 'admin' })
              .where(sql`${operators.email} in (${boss.email}, ${ana.email})`);
            const results = await Promise.all([
              changeOperatorRole(db, boss, ana.email, 'sales'),
              changeOperatorRole(other, ana, boss.email, 'sales'),
            ]);
            outcomes.push(results.join('/'));
            expect(results.sort()).toEqual(['last-admin', 'updated']);
            const admins = await db.select().from(operators).where(eq(operators.role, 'admin'));
            expect(admins).toHaveLength(1);
          }
          console.log(`two demotions at once, 10 rounds (${backend.kind}): ${outcomes.join(', ')}`);
        } finally {
          await second?.close();
        }
      });

      it('writes the admins made from ADMIN_EMAILS to the audit log, once', async () => {
        const { db } = database;
        await changeOperatorRole(db, boss, sam.email, 'admin');
        await changeOperatorRole(db, sam, boss.email, 'sales');
        await db.delete(auditLog);
        await ensureAdmins(db, ['boss@nirmaya.example', 'new@nirmaya.example']);
        await ensureAdmins(db, ['boss@nirmaya.example', 'new@nirmaya.example']);
        const audit = await listAudit(db, { query: ADMIN_EMAILS_ACTOR });
        expect(audit.rows.map((row) => [row.action, row.subject, row.detail]).sort()).toEqual([
          ['operator-add', 'new@nirmaya.example', 'admin'],
          ['operator-role', 'boss@nirmaya.example', 'admin'],
        ]);
      });
    },
  );
}
