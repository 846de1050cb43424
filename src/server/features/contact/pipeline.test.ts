import '@test/quiet-logs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { count, eq, sql } from 'drizzle-orm';
import {
  contactFields,
  contactSchema,
  honeypotField,
  type ContactValues,
} from '@/lib/contact-schema';
import { jobs as jobTable } from '../../delivery/queue/schema';
import { leads } from './schema';
import { rateLimits } from '../../platform/rate-limit/schema';
import { eraseEnquiriesFrom } from './personal-data';
import { releaseSpam } from './quarantine';
import { log } from '../../platform/log';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { startSmtpServer, type TestSmtpServer } from '@test/smtp';
import {
  LEADS_TO,
  TEST_SECRET,
  deps,
  formData,
  freshToken,
  request,
  testWorker,
  until,
  validValues,
} from '@test/enquiry';
import { requeueFailed } from '../../delivery/queue/operations';
import { privacyNotice } from '@/content/privacy';
import { hashClientAddress } from '../../platform/http/client-address';
import { proofField } from '@/lib/proof-of-work';
import { createFormChallenge } from '../../platform/security/altcha';
import { messages, submitEnquiry } from './submit';
import { issueFormToken, verifyFormToken } from '../../platform/security/form-token';
import { solvedProof } from '@test/proof-of-work';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { solveChallenge } from 'altcha-lib';

/** When `token` was issued (ms since the epoch). */
function verifyTime(token: string): number {
  return parseInt(token.split('.')[1]!, 36);
}

/** The token with one character of its nonce changed (the signature no longer matches). */
function tamper(token: string): string {
  const parts = token.split('.');
  parts[2] = (parts[2]![0] === 'A' ? 'B' : 'A') + parts[2]!.slice(1);
  return parts.join('.');
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('enquiry pipeline', backend), () => {
    let database: TestDatabase;
    let smtp: TestSmtpServer;

    beforeAll(async () => {
      database = await openTestDatabase(backend.kind);
      smtp = await startSmtpServer();
    });
    afterAll(async () => {
      await smtp?.close();
      await database?.dispose();
    });
    beforeEach(async () => {
      // Jobs belong to their enquiry by `owner` only (no foreign key): cleared with the enquiries.
      await database.db.delete(jobTable);
      await database.db.delete(leads);
      await database.db.delete(rateLimits);
      smtp.received.length = 0;
      smtp.refuse(null);
    });

    const leadCount = async () => (await database.db.select({ n: count() }).from(leads))[0]!.n;
    const jobs = () => database.db.select().from(jobTable);

    it('stores a valid enquiry with its job, and e-mails it once with every value escaped', async () => {
      const values: ContactValues = {
        ...validValues,
        organization: 'St. <b>Mary</b> & "Sons"',
        subject: "Demo <img src=x onerror=alert('x')>",
        message: '<script>alert("hi")</script>\nLine 2 & more',
      };
      const state = await submitEnquiry(formData(values), request(), deps(database.db));
      expect(state.status).toBe('accepted');
      const [lead] = await database.db.select().from(leads);
      expect(lead).toMatchObject({
        organization: values.organization,
        message: values.message,
        noticeVersion: privacyNotice.version,
      });
      // The client address is only a rate-limit key: no column of the enquiry holds it or its hash.
      expect(JSON.stringify(lead)).not.toContain(
        hashClientAddress(request().clientAddress, TEST_SECRET),
      );
      expect(state).toMatchObject({ reference: lead!.reference });
      expect(await jobs()).toMatchObject([
        {
          kind: 'enquiry.email',
          payload: { leadId: lead!.id },
          dedupeKey: `enquiry.email:${lead!.id}`,
          owner: lead!.id,
          status: 'pending',
        },
      ]);

      const worker = testWorker(database.db, smtp.url);
      expect(await worker.drain()).toBe(1);
      expect(await worker.drain()).toBe(0);
      expect(smtp.received).toHaveLength(1);
      const mail = smtp.received[0]!;
      expect(mail.envelope.to).toEqual([LEADS_TO]);
      expect(mail.parsed.messageId).toBe(`<enquiry.${lead!.id}@nirmaya.example>`);
      expect(mail.parsed.replyTo).toEqual([{ name: 'Asha Rao', address: validValues.email }]);
      expect(mail.parsed.subject).toBe(`Website enquiry ${lead!.reference}: ${values.subject}`);
      expect(mail.parsed.text).toContain('<script>alert("hi")</script>');
      expect(mail.parsed.html).toContain('&lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt;');
      expect(mail.parsed.html).toContain('St. &lt;b&gt;Mary&lt;/b&gt; &amp; &quot;Sons&quot;');
      expect(mail.parsed.html).not.toMatch(/<script|<img|<b>/);
      expect((await jobs())[0]).toMatchObject({ status: 'sent', attempts: 1 });
    });

    it.each([
      ['firstName', '', 'Enter your first name.'],
      ['firstName', '   ', 'Enter your first name.'],
      ['lastName', 'x'.repeat(101), 'Last Name must be at most 100 characters.'],
      ['email', 'not-an-address', 'Enter a valid e-mail address, like name@hospital.org.'],
      ['email', `${'a'.repeat(250)}@x.io`, 'Email must be at most 254 characters.'],
      ['organization', '', 'Enter your organization.'],
      ['organization', 'x'.repeat(201), 'Organization must be at most 200 characters.'],
      ['subject', '', 'Enter a subject.'],
      ['subject', 'Tab\there', 'Subject must be on one line, without control characters.'],
      ['message', 'x'.repeat(5001), 'Message must be at most 5000 characters.'],
      ['message', 'bell\u0007', 'Message must not contain control characters.'],
    ] as const)(
      'refuses %s = %j with its message and stores nothing',
      async (field, value, message) => {
        const state = await submitEnquiry(
          formData({ [field]: value }),
          request(),
          deps(database.db),
        );
        expect(state).toMatchObject({
          status: 'invalid',
          message: messages.invalid,
          errors: { [field]: message },
        });
        if (state.status === 'invalid') {
          expect(Object.keys(state.errors)).toEqual([field]);
          expect(state.values[field]).toBe(value);
          expect(state.values.firstName).toBe(
            field === 'firstName' ? value : validValues.firstName,
          );
        }
        expect(await leadCount()).toBe(0);
      },
    );

    it.each([
      ['email', 'asha@hospital.example\r\nBcc: evil@attacker.example'],
      ['email', 'asha@hospital.example, evil@attacker.example'],
      ['firstName', 'Asha\r\nBcc: evil@attacker.example'],
      ['lastName', 'Rao\nTo: evil@attacker.example'],
      ['subject', 'Hello\r\nContent-Type: text/html'],
      ['organization', 'Org\u2028Bcc: evil@attacker.example'],
    ] as const)('refuses header injection in %s and stores nothing', async (field, value) => {
      const state = await submitEnquiry(formData({ [field]: value }), request(), deps(database.db));
      expect(state.status).toBe('invalid');
      expect(await leadCount()).toBe(0);
    });

    it('adds no recipient or header for address-like text in names and subject', async () => {
      const values = {
        firstName: '"Eve" <evil@attacker.example>, bcc: other@attacker.example',
        lastName: 'Bcc: evil@attacker.example',
        subject: 'Hello; Bcc: evil@attacker.example, To: other@attacker.example',
      };
      expect((await submitEnquiry(formData(values), request(), deps(database.db))).status).toBe(
        'accepted',
      );
      await testWorker(database.db, smtp.url).drain();
      const [mail] = smtp.received;
      expect(mail!.envelope.to).toEqual([LEADS_TO]);
      expect(mail!.parsed.to).toEqual([{ name: '', address: LEADS_TO }]);
      expect(mail!.parsed.bcc).toBeUndefined();
      expect(mail!.parsed.cc).toBeUndefined();
      expect(mail!.parsed.replyTo).toHaveLength(1);
      expect(mail!.parsed.replyTo![0]).toMatchObject({ address: validValues.email });
      expect(mail!.parsed.subject).toContain(values.subject);
      const headerNames = mail!.parsed.headers.map((header) => header.key);
      expect(headerNames).not.toContain('bcc');
      expect(headerNames.filter((name) => name === 'to')).toHaveLength(1);
    });

    it.each([
      ['a filled honeypot', 'honeypot', () => formData({}, { honeypot: 'http://spam.example' })],
      ['no honeypot field', 'honeypot', () => formData({}, { honeypot: null })],
      ['no token', 'missing', () => formData({}, { token: null })],
      ['a tampered token', 'tampered', () => formData({}, { token: tamper(freshToken()) })],
      [
        'a token signed with another key',
        'tampered',
        () => formData({}, { token: issueFormToken('another-secret', Date.now() - 10_000) }),
      ],
      [
        'a token issued a second ago',
        'too-fast',
        () => formData({}, { token: issueFormToken(TEST_SECRET, Date.now() - 1_000) }),
      ],
    ])(
      'quarantines a post with %s: answered like a visitor, stored as spam, not e-mailed until released, then once',
      async (_case, reason, post) => {
        const state = await submitEnquiry(post(), request(), deps(database.db));
        expect(state).toMatchObject({ status: 'accepted', message: messages.accepted });
        const [row] = await database.db.select().from(leads);
        expect(row).toMatchObject({ verdict: 'spam', spamReason: reason, releasedAt: null });
        expect(state.status === 'accepted' && state.reference).toBe(row!.reference);
        expect(await jobs()).toHaveLength(0);
        const worker = testWorker(database.db, smtp.url);
        expect(await worker.drain()).toBe(0);
        expect(smtp.received).toHaveLength(0);

        expect(
          await releaseSpam(database.db, row!.reference.toLowerCase(), { webhookUrls: [] }),
        ).toBe('released');
        expect(await releaseSpam(database.db, row!.reference, { webhookUrls: [] })).toBe(
          'already-released',
        );
        expect((await database.db.select().from(leads))[0]).toMatchObject({
          verdict: 'lead',
          releasedAt: expect.any(Date),
        });
        expect(await worker.drain()).toBe(1);
        expect(await releaseSpam(database.db, row!.reference, { webhookUrls: [] })).toBe(
          'already-released',
        );
        expect(await worker.drain()).toBe(0);
        expect(smtp.received).toHaveLength(1);
        expect(smtp.received[0]!.parsed.subject).toContain(row!.reference);
        expect(await releaseSpam(database.db, 'NH-0000000000', { webhookUrls: [] })).toBe(
          'not-found',
        );
      },
    );

    it('shows field errors before any bot verdict', async () => {
      const post = formData(
        { email: 'asha@hospital' },
        { honeypot: 'x', token: issueFormToken(TEST_SECRET, Date.now() - 500) },
      );
      const state = await submitEnquiry(post, request(), deps(database.db));
      expect(state).toMatchObject({
        status: 'invalid',
        message: messages.invalid,
        errors: { email: expect.any(String) },
      });
      expect(await leadCount()).toBe(0);
    });

    it('stores at most SPAM_MAX_PER_HOUR quarantined enquiries an hour, counting the rest in the log', async () => {
      const warn = vi.spyOn(log, 'warn');
      try {
        const states = [];
        for (let i = 0; i < 6; i++) {
          states.push(
            await submitEnquiry(
              formData({}, { honeypot: 'x' }),
              request(),
              deps(database.db, { spamMaxPerHour: 4 }),
            ),
          );
        }
        expect(states.every((state) => state.status === 'accepted')).toBe(true);
        expect(await leadCount()).toBe(4);
        const overflow = warn.mock.calls.map(
          ([entry]) => entry as unknown as Record<string, unknown>,
        );
        console.log(
          'quarantine ceiling 4/h, 6 posted: stored',
          await leadCount(),
          'logged',
          overflow,
        );
        expect(overflow).toEqual([
          { event: 'enquiry.quarantine_full', reason: 'honeypot', overflow: 1 },
          { event: 'enquiry.quarantine_full', reason: 'honeypot', overflow: 2 },
        ]);
        const nextHour = () => new Date(Date.now() + 3_600_000);
        await submitEnquiry(
          formData({}, { honeypot: 'x' }),
          request(),
          deps(database.db, { spamMaxPerHour: 4, now: nextHour }),
        );
        expect(await leadCount()).toBe(5);
        // The ceiling holds back spam only: a real enquiry is still stored.
        expect(
          (await submitEnquiry(formData(), request(), deps(database.db, { spamMaxPerHour: 4 })))
            .status,
        ).toBe('accepted');
        expect(await jobs()).toHaveLength(1);
      } finally {
        warn.mockRestore();
      }
    });

    it("counts quarantined posts toward the client's rate limit", async () => {
      const client = request();
      for (let i = 0; i < 5; i++) {
        expect(
          (await submitEnquiry(formData({}, { token: null }), client, deps(database.db))).status,
        ).toBe('accepted');
      }
      expect(
        await submitEnquiry(formData({}, { token: null }), client, deps(database.db)),
      ).toMatchObject({
        status: 'invalid',
        message: messages.rateLimited,
      });
      expect(await submitEnquiry(formData(), client, deps(database.db))).toMatchObject({
        message: messages.rateLimited,
      });
      expect(await leadCount()).toBe(5);
    });

    it('delivers a fast post that carries a valid ALTCHA proof, and quarantines forged and reused proofs', async () => {
      const fast = issueFormToken(TEST_SECRET, Date.now());
      const proof = await solvedProof(fast);
      const post = (token: string, payload: string) => {
        const data = formData({}, { token });
        data.set(proofField, payload);
        return data;
      };
      // Posted 0.5 s after the token was issued (the clock test alone would call it a bot).
      const halfSecond = () => new Date(verifyTime(fast) + 500);
      const state = await submitEnquiry(
        post(fast, proof),
        request(),
        deps(database.db, { now: halfSecond }),
      );
      expect(state.status).toBe('accepted');
      expect(await database.db.select().from(leads)).toMatchObject([
        { verdict: 'lead', spamReason: null },
      ]);
      expect(await testWorker(database.db, smtp.url).drain()).toBe(1);
      // The same form and solution posted again: the same enquiry, nothing new stored or sent.
      expect(
        await submitEnquiry(post(fast, proof), request(), deps(database.db, { now: halfSecond })),
      ).toEqual(state);

      // The same solution with another form: reused, quarantined.
      const other = freshToken();
      await submitEnquiry(post(other, proof), request(), deps(database.db));
      // A solution of a challenge signed with another key: forged, quarantined.
      const foreign = freshToken();
      await submitEnquiry(
        post(foreign, await solvedProof(foreign, 'another-secret-0123456789abcdef')),
        request(),
        deps(database.db),
      );
      // Not even a payload.
      await submitEnquiry(post(freshToken(), 'bm90IGpzb24='), request(), deps(database.db));
      const spam = await database.db
        .select({ reason: leads.spamReason })
        .from(leads)
        .where(eq(leads.verdict, 'spam'));
      expect(spam.map((row) => row.reason).sort()).toEqual([
        'altcha-invalid',
        'altcha-invalid',
        'altcha-replayed',
      ]);
      expect(await jobs()).toHaveLength(1);
    });

    it('falls back to the clock test when the proof expired', async () => {
      const post = (token: string, payload: string) => {
        const data = formData({}, { token });
        data.set(proofField, payload);
        return data;
      };
      const expiredProof = async (token: string) => {
        const check = verifyFormToken(token, TEST_SECRET, Date.now(), 0);
        if (!check.ok) throw new Error('bad test token');
        const challenge = await createFormChallenge(
          TEST_SECRET,
          check.nonce,
          new Date(Date.now() - 2 * 3_600_000),
        );
        const solution = await solveChallenge({ challenge, deriveKey });
        return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
      };
      const slow = freshToken();
      expect(
        (await submitEnquiry(post(slow, await expiredProof(slow)), request(), deps(database.db)))
          .status,
      ).toBe('accepted');
      const fast = issueFormToken(TEST_SECRET, Date.now());
      await submitEnquiry(post(fast, await expiredProof(fast)), request(), deps(database.db));
      const rows = await database.db
        .select({ verdict: leads.verdict, reason: leads.spamReason })
        .from(leads);
      expect(rows.map((row) => `${row.verdict}:${row.reason}`).sort()).toEqual([
        'lead:null',
        'spam:too-fast',
      ]);
    });

    it('asks again, with a fresh token and the values kept, when the token expired', async () => {
      const old = issueFormToken(TEST_SECRET, Date.now() - 7 * 3_600_000);
      const state = await submitEnquiry(formData({}, { token: old }), request(), deps(database.db));
      expect(state).toMatchObject({
        status: 'invalid',
        message: messages.expired,
        values: validValues,
      });
      expect(await leadCount()).toBe(0);
      const token = state.status === 'invalid' ? state.token : undefined;
      expect(token).toBeTruthy();
      const later = () => new Date(Date.now() + 10_000);
      const retry = await submitEnquiry(
        formData({}, { token }),
        request(),
        deps(database.db, { now: later }),
      );
      expect(retry.status).toBe('accepted');
      expect(await leadCount()).toBe(1);
    });

    it('refuses cross-site and origin-less posts', async () => {
      for (const origin of ['https://attacker.example', 'null', null]) {
        const state = await submitEnquiry(formData(), { ...request(), origin }, deps(database.db));
        expect(state).toMatchObject({ status: 'invalid', message: messages.origin });
      }
      const viaSiteUrl = await submitEnquiry(
        formData(),
        { ...request(), origin: 'https://www.nirmaya.example', host: 'internal:3000' },
        deps(database.db, { allowedOrigins: ['https://www.nirmaya.example'] }),
      );
      expect(viaSiteUrl.status).toBe('accepted');
      expect(await leadCount()).toBe(1);
    });

    // The edge re-sends a post the first instance dropped before answering (deploy/nginx.conf), so
    // the second post may arrive after the first was stored, or while it is being stored.
    it.each(['in sequence', 'in parallel'] as const)(
      'stores a form posted twice %s once, and answers both posts with its reference',
      async (order) => {
        const token = freshToken();
        const client = request();
        // A limit of one enquiry per client: the second post must not count as another.
        const limit = { rateLimit: { max: 1, windowMs: 600_000 } };
        const post = () => submitEnquiry(formData({}, { token }), client, deps(database.db, limit));
        // Open pool connections first (PostgreSQL), so both posts reach the database together:
        // otherwise the second waits for a new connection while the first completes.
        await Promise.all([1, 2, 3].map(() => database.db.execute(sql`SELECT pg_sleep(0.05)`)));
        const [first, second] =
          order === 'in parallel'
            ? await Promise.all([post(), post()])
            : [await post(), await post()];
        const answer = (state: typeof first) =>
          state.status === 'accepted' ? `accepted ${state.reference}` : state.status;
        console.log(
          `same form token posted twice ${order} [${backend.kind}]: ${answer(first)}, ${answer(second)}; ` +
            `${await leadCount()} row, ${(await jobs()).length} job`,
        );
        expect(first.status).toBe('accepted');
        expect(second).toEqual(first);
        expect(await leadCount()).toBe(1);
        expect(await jobs()).toHaveLength(1);
      },
    );

    it('limits a client to 5 enquiries per 10 minutes, across its submissions only', async () => {
      const client = request();
      for (let i = 0; i < 5; i++) {
        expect((await submitEnquiry(formData(), client, deps(database.db))).status).toBe(
          'accepted',
        );
      }
      const sixth = await submitEnquiry(formData(), client, deps(database.db));
      expect(sixth).toMatchObject({
        status: 'invalid',
        message: messages.rateLimited,
        values: validValues,
      });
      expect(await leadCount()).toBe(5);
      expect((await submitEnquiry(formData(), request(), deps(database.db))).status).toBe(
        'accepted',
      );
      const nextWindow = () => new Date(Date.now() + 600_000);
      const later = await submitEnquiry(
        formData({}, { token: freshToken(nextWindow().getTime()) }),
        client,
        deps(database.db, { now: nextWindow }),
      );
      expect(later.status).toBe('accepted');
    });

    it('keeps all 50 enquiries while SMTP is down and delivers each once when it returns', async () => {
      await smtp.close();
      for (let i = 0; i < 50; i++) {
        expect(
          (await submitEnquiry(formData({ subject: `Enquiry ${i}` }), request(), deps(database.db)))
            .status,
        ).toBe('accepted');
      }
      expect(await leadCount()).toBe(50);
      const worker = testWorker(database.db, smtp.url);
      await worker.drain();
      const afterOutage = await jobs();
      expect(
        afterOutage.every((job) => job.status === 'pending' && job.attempts >= 1 && job.lastError),
      ).toBe(true);

      await smtp.listen();
      await until(async () => {
        await worker.drain();
        return (await jobs()).every((job) => job.status === 'sent');
      });
      expect(smtp.received).toHaveLength(50);
      expect(new Set(smtp.received.map((mail) => mail.parsed.messageId)).size).toBe(50);
    });

    it('retries a temporary 4xx refusal with backoff', async () => {
      smtp.refuse({ code: 451, message: 'Try again later' });
      await submitEnquiry(formData(), request(), deps(database.db));
      const worker = testWorker(database.db, smtp.url);
      await worker.drain();
      expect((await jobs())[0]).toMatchObject({ status: 'pending', attempts: 1 });
      expect((await jobs())[0]!.lastError).toContain('451');
      expect((await jobs())[0]!.runAt.getTime()).toBeGreaterThan(Date.now() - 1_000);
      smtp.refuse(null);
      await until(async () => {
        await worker.drain();
        return (await jobs())[0]!.status === 'sent';
      });
      expect(smtp.received).toHaveLength(1);
      expect((await jobs())[0]!.attempts).toBeGreaterThanOrEqual(2);
    });

    it('marks a permanent 5xx refusal failed, and sends it after a retry', async () => {
      smtp.refuse({ code: 550, message: 'Mailbox unavailable' });
      await submitEnquiry(formData(), request(), deps(database.db));
      const worker = testWorker(database.db, smtp.url);
      await worker.drain();
      await worker.drain();
      expect((await jobs())[0]).toMatchObject({ status: 'failed', attempts: 1 });
      expect((await jobs())[0]!.lastError).toContain('550');
      expect(smtp.received).toHaveLength(0);

      smtp.refuse(null);
      expect(await requeueFailed(database.db)).toBe(1);
      expect(await worker.drain()).toBe(1);
      expect((await jobs())[0]).toMatchObject({ status: 'sent' });
      expect(smtp.received).toHaveLength(1);
    });

    it('never fails and never stores an invalid row, whatever is posted (fuzzed)', async () => {
      const text = fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.string({ unit: 'grapheme', maxLength: 30 }),
        fc.string({ unit: 'binary', maxLength: 30 }),
        fc.constantFrom('', ' ', 'a@b.co', 'x\r\ny', '=cmd()', 'x'.repeat(300)),
      );
      const field = fc.option(text, { nil: undefined });
      const submission = fc.record({
        values: fc.record(
          Object.fromEntries(contactFields.map((name) => [name, field])) as Record<
            (typeof contactFields)[number],
            typeof field
          >,
        ),
        honeypot: fc.option(fc.constantFrom('', 'x'), { nil: null }),
        token: fc.constantFrom('fresh', 'none', 'junk'),
      });
      await fc.assert(
        fc.asyncProperty(submission, async ({ values, honeypot, token }) => {
          const data = new FormData();
          for (const [name, value] of Object.entries(values))
            if (value !== undefined) data.set(name, value);
          if (honeypot !== null) data.set(honeypotField, honeypot);
          if (token !== 'none') data.set('formToken', token === 'fresh' ? freshToken() : 'v1.junk');
          const state = await submitEnquiry(data, request(), deps(database.db));
          expect(['invalid', 'accepted']).toContain(state.status);
        }),
        { numRuns: 150 },
      );
      for (const row of await database.db.select().from(leads)) {
        const fields = Object.fromEntries(contactFields.map((name) => [name, row[name]]));
        expect(contactSchema.parse(fields)).toEqual(fields);
      }
    });

    it('lets the stored job point at its lead until the lead is deleted', async () => {
      await submitEnquiry(formData(), request(), deps(database.db));
      const [lead] = await database.db.select().from(leads);
      expect(await jobs()).toMatchObject([{ owner: lead!.id }]);
      const erased = await database.db.transaction((tx) => eraseEnquiriesFrom(tx, lead!.email));
      expect({ enquiries: erased.enquiries, jobs: erased.jobs }).toEqual({ enquiries: 1, jobs: 1 });
      expect(await jobs()).toHaveLength(0);
    });

    it('sends nothing for a job whose lead was deleted behind the queue, and records it done', async () => {
      await submitEnquiry(formData(), request(), deps(database.db));
      const [lead] = await database.db.select().from(leads);
      await database.db.delete(leads).where(eq(leads.id, lead!.id));
      expect(await testWorker(database.db, smtp.url).drain()).toBe(1);
      expect(smtp.received).toHaveLength(0);
      expect(await jobs()).toMatchObject([{ owner: lead!.id, status: 'sent', attempts: 1 }]);
    });
  });
}
