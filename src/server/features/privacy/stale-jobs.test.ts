import '@test/quiet-logs';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { TEST_SECRET } from '@test/enquiry';
import { enqueue } from '../../delivery/queue/enqueue';
import { jobs } from '../../delivery/queue/schema';
import { addressHash } from '../../platform/people/address-hash';
import { personalData } from '../../wiring/personal-data';
import { eraseAddress } from './erase';
import { replyToPrivacyRequest } from './handling';
import { privacyLinkJob } from './link-job';
import { issuePrivacyLink } from './link-token';
import { openRequest } from './records';
import { purgeExpired } from './retention';
import { privacyRequests } from './schema';
import { REPLY_ERASED_OUTCOME, REPLY_UNSENT_OUTCOME } from './stale-jobs';

/**
 * Privacy e-mails that never left (their payloads hold the address and the reply's text) are not
 * kept for ever: failed or waiting `privacy.*` jobs go after 30 days and with an erasure of their
 * address, and a reply dropped unsent never leaves its request looking answered. No worker runs:
 * every job here waits, as without SMTP. The clock is injected into the purge.
 */

const DAY_MS = 86_400_000;
const admin = { email: 'admin@nirmaya.example', role: 'admin' as const };
const retention = { leadsDays: 365, spamDays: 30 };

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('privacy jobs left unsent', backend), () => {
    let database: TestDatabase;
    const holders = () => personalData({ webhookUrls: [] });

    beforeAll(async () => {
      database = await openTestDatabase(backend.kind);
    });
    afterAll(async () => {
      await database?.dispose();
    });

    /** An open correction request of `email`, answered by an admin: its reply job waits. */
    async function answered(email: string, n: number): Promise<string> {
      const now = new Date();
      const row = await openRequest(database.db, {
        kind: 'correct',
        email,
        emailHash: addressHash(email, TEST_SECRET),
        details: 'My surname is misspelt.',
        linkNonce: `nonce-${email}-${n}`,
        requestedAt: now,
        verifiedAt: now,
      });
      expect(
        await replyToPrivacyRequest(database.db, admin, row!.reference, 'Corrected, thank you.'),
      ).toBe('replied');
      return row!.id;
    }

    /** A link e-mail queued for `email` (never sent). */
    async function link(email: string): Promise<void> {
      const { token, nonce } = issuePrivacyLink(
        { kind: 'grievance', email, details: 'Spam.' },
        TEST_SECRET,
      );
      await enqueue(database.db, privacyLinkJob, { token }, { dedupeKey: `privacy.link:${nonce}` });
    }

    const privacyJobs = () =>
      database.db
        .select({ kind: jobs.kind, owner: jobs.owner, payload: jobs.payload })
        .from(jobs)
        .where(like(jobs.kind, 'privacy.%'));

    it('purges failed or waiting privacy jobs after 30 days and reopens a request whose reply never left', async () => {
      const id = await answered('late.reply@hospital.example', 1);
      await link('late.link@hospital.example');
      await database.db
        .update(jobs)
        .set({ status: 'failed' })
        .where(eq(jobs.kind, privacyLinkJob.name));
      expect(await privacyJobs()).toHaveLength(2);

      await purgeExpired(database.db, holders(), retention, new Date(Date.now() + 29 * DAY_MS));
      expect(await privacyJobs()).toHaveLength(2);
      const [before] = await database.db
        .select()
        .from(privacyRequests)
        .where(eq(privacyRequests.id, id));
      expect(before).toMatchObject({ status: 'closed', outcome: 'answered', email: null });

      await purgeExpired(database.db, holders(), retention, new Date(Date.now() + 31 * DAY_MS));
      expect(await privacyJobs()).toEqual([]);
      const [after] = await database.db
        .select()
        .from(privacyRequests)
        .where(eq(privacyRequests.id, id));
      expect(after).toMatchObject({
        status: 'open',
        closedAt: null,
        email: 'late.reply@hospital.example',
        outcome: REPLY_UNSENT_OUTCOME,
      });
    });

    it("an erasure drops the address's waiting links and replies, and its request is not left answered", async () => {
      const erased = 'Erased.Person@hospital.example';
      const other = 'other.person@hospital.example';
      const id = await answered(erased.toLowerCase(), 2);
      await link(erased);
      await answered(other, 3);
      await link(other);
      expect(await privacyJobs()).toHaveLength(4);

      const result = await eraseAddress(
        database.db,
        { secret: TEST_SECRET, webhookUrls: [], holders: holders() },
        { email: erased, kind: 'erase', actor: admin },
        { waitMs: 0 },
      );
      expect(result.outcome).toBe('erased');
      const left = await privacyJobs();
      expect(left.map((job) => job.kind).sort()).toEqual(['privacy.link', 'privacy.reply']);
      expect(JSON.stringify(left)).not.toMatch(/erased\.person/i);
      const [request] = await database.db
        .select()
        .from(privacyRequests)
        .where(eq(privacyRequests.id, id));
      expect(request).toMatchObject({ status: 'closed', outcome: REPLY_ERASED_OUTCOME });
    });
  });
}
