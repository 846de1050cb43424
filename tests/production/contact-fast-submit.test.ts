import '@test/quiet-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import { CHROME_FLAGS, CHROME_PATH } from '../../scripts/chromium.mjs';
import { jobs } from '@/server/delivery/queue/schema';
import { leads } from '@/server/features/contact/schema';
import { backends, openTestDatabase, type TestDatabase } from '@test/databases';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';
import { LEADS_TO, until } from '@test/enquiry';
import { loggedLines, startProductionServer, type ProductionServer } from '@test/next-server';

/**
 * Fast submit: a visitor whose browser autofills the form and who presses Submit 1 s after the page
 * loaded is never told "thank you" for an enquiry that went nowhere. Real `next start`, real
 * Chromium (JavaScript on: the ALTCHA widget, fetched on the first interaction with the form, is
 * awaited, also when its code arrives late, and the lead delivered; off: the post is quarantined
 * for review), real PostgreSQL read directly, real SMTP. Every page must load
 * without a Content-Security-Policy violation.
 */

const postgres = backends.find((backend) => backend.kind === 'postgres')!;

/** Code of the proof of work only: the widget's global (`$altcha`) and its worker's algorithm. */
const PROOF_CODE = /\$altcha|PBKDF2/;

const visitor = {
  firstName: 'Asha',
  lastName: 'Rao',
  email: 'asha.rao@hospital.example',
  organization: 'City General Hospital',
  message: 'Autofilled and sent at once.',
};

describe.skipIf(postgres.skipReason)(
  'a fast visitor on /contact-us (next start, Chromium, PostgreSQL)',
  () => {
    let database: TestDatabase;
    let smtp: TestSmtpServer;
    let server: ProductionServer;
    let browser: Browser;

    beforeAll(async () => {
      database = await openTestDatabase('postgres');
      smtp = await startSmtpServer();
      server = await startProductionServer({
        env: {
          DATABASE_URL: database.url,
          FORM_SECRET: 'fast-submit-test-secret-0123456789abcdef',
          SMTP_URL: smtp.url,
          LEADS_TO,
          TRUST_PROXY: '1',
        },
        readyPath: '/api/health',
      });
      browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await smtp?.close();
      await database?.dispose();
    });

    /** A context posting from its own address, collecting CSP violations. */
    async function newContext(javaScriptEnabled: boolean, address: string) {
      const context = await browser.newContext({
        javaScriptEnabled,
        extraHTTPHeaders: { 'X-Forwarded-For': address },
      });
      const violations: string[] = [];
      context.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
          violations.push(message.text());
      });
      return { context, violations };
    }

    /** Opens the demo path (subject pre-filled), fills every field at once and submits 1 s after load. */
    async function fastVisit(context: BrowserContext) {
      const page = await context.newPage();
      await page.goto(`${server.url}/contact-us?subject=demo`);
      const loadedAt = Date.now();
      for (const [name, value] of Object.entries(visitor))
        await page.locator(`[name="${name}"]`).fill(value);
      await page.waitForTimeout(Math.max(0, loadedAt + 1_000 - Date.now()));
      const submittedAfter = Date.now() - loadedAt;
      const posted = page.waitForRequest((request) => request.method() === 'POST');
      await page.getByRole('button', { name: 'Submit' }).click();
      const post = await posted;
      const postedAfter = Date.now() - loadedAt;
      const withProof = /name="(?:_\d+_)?altcha"\r\n\r\n[A-Za-z0-9+/=]{20,}/.test(
        post.postData() ?? '',
      );
      const reference = page.getByTestId('enquiry-reference');
      await reference.waitFor({ timeout: 30_000 });
      return {
        page,
        reference: (await reference.textContent())!,
        submittedAfter,
        postedAfter,
        withProof,
        answeredAfter: Date.now() - loadedAt,
      };
    }

    it('with JavaScript: waits for the proof of work and delivers the lead', async () => {
      const { context, violations } = await newContext(true, '10.9.0.1');
      const visit = await fastVisit(context);
      const [row] = await database.db
        .select()
        .from(leads)
        .where(eq(leads.reference, visit.reference));
      console.log(
        `JS on: Submit pressed ${visit.submittedAfter} ms after load, posted ${visit.withProof ? 'with' : 'WITHOUT'} a proof at ${visit.postedAfter} ms, confirmation at ${visit.answeredAfter} ms; stored as ${row?.verdict} (${row?.spamReason ?? 'no bot signal'})`,
      );
      expect(visit.withProof).toBe(true);
      expect(row).toMatchObject({
        verdict: 'lead',
        spamReason: null,
        subject: 'Request a demo of Nirmaya HIMS',
      });
      // E-mailed by the server's worker, once (the job is marked sent just after the SMTP reply).
      const job = async () =>
        (
          await database.db
            .select()
            .from(jobs)
            .where(and(eq(jobs.owner, row!.id), eq(jobs.kind, 'enquiry.email')))
        )[0];
      await until(async () => (await job())?.status === 'sent', 30_000);
      expect(
        smtp.received.filter((mail) => mail.parsed.subject?.includes(visit.reference)),
      ).toHaveLength(1);
      expect(violations).toEqual([]);
      await context.close();
    });

    it('with JavaScript on a slow connection: the proof-of-work code arrives late, the submit waits for it', async () => {
      const { context, violations } = await newContext(true, '10.9.0.3');
      // Each script of the proof of work (the widget's two chunks, then its worker, one after the
      // other) arrives 1.5 s after it is asked for, as on a slow link; everything else at once.
      const DELAY_MS = 1_500;
      await context.route('**/_next/static/**/*.js', async (route) => {
        const response = await route.fetch();
        if (PROOF_CODE.test(await response.text()))
          await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
        await route.fulfill({ response });
      });
      const visit = await fastVisit(context);
      const [row] = await database.db
        .select()
        .from(leads)
        .where(eq(leads.reference, visit.reference));
      console.log(
        `JS on, proof code ${DELAY_MS} ms late: Submit pressed ${visit.submittedAfter} ms after load, posted ${visit.withProof ? 'with' : 'WITHOUT'} a proof at ${visit.postedAfter} ms, confirmation at ${visit.answeredAfter} ms; stored as ${row?.verdict} (${row?.spamReason ?? 'no bot signal'})`,
      );
      expect(visit.postedAfter).toBeGreaterThanOrEqual(DELAY_MS);
      expect(visit.withProof).toBe(true);
      expect(row).toMatchObject({ verdict: 'lead', spamReason: null });
      expect(violations).toEqual([]);
      await context.close();
    });

    it('without JavaScript: quarantines the too-fast post, stored for review, not e-mailed', async () => {
      const { context, violations } = await newContext(false, '10.9.0.2');
      const visit = await fastVisit(context);
      const [row] = await database.db
        .select()
        .from(leads)
        .where(eq(leads.reference, visit.reference));
      console.log(
        `JS off: Submit pressed ${visit.submittedAfter} ms after load, posted at ${visit.postedAfter} ms; stored as ${row?.verdict} (${row?.spamReason})`,
      );
      expect(visit.withProof).toBe(false);
      expect(row).toMatchObject({ verdict: 'spam', spamReason: 'too-fast', email: visitor.email });
      expect(await database.db.select().from(jobs).where(eq(jobs.owner, row!.id))).toEqual([]);
      const quarantined = await loggedLines(server, (line) => line.event === 'enquiry.quarantined');
      expect(quarantined).toEqual([
        expect.objectContaining({ reason: 'too-fast', reference: visit.reference }),
      ]);
      expect(JSON.stringify(quarantined)).not.toContain(visitor.email);
      expect(violations).toEqual([]);
      await context.close();
    });
  },
);
