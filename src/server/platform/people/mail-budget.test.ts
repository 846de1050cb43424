import '@test/quiet-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import {
  admitUnprovenMail,
  isSiteBusy,
  purgeUnprovenMails,
  type MailAdmission,
  type MailRequester,
} from './mail-budget';
import type { UnprovenMailBucket } from './schema';
import { unprovenMails } from './schema';

const limits = { perAddressPerDay: 6, perClientPerDay: 2, grievancesPerDay: 2, sitePerHour: 10 };
const at = (iso: string) => new Date(iso);
const client = (group: string, proofOfWork = false): MailRequester => ({ group, proofOfWork });

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('the budget of mails to unproven addresses', backend),
    () => {
      let database: TestDatabase;
      beforeAll(async () => {
        database = await openTestDatabase(backend.kind);
      });
      afterAll(() => database?.dispose());

      const admit = (
        emailHash: string,
        requester: MailRequester,
        now: Date,
        bucket: UnprovenMailBucket = 'proof',
      ): Promise<MailAdmission> =>
        database.db.transaction((tx) =>
          admitUnprovenMail(tx, { emailHash, kind: 'test.mail', bucket, requester, now }, limits),
        );
      const verdict = async (...args: Parameters<typeof admit>) => (await admit(...args)).verdict;

      it('lets one client group set off 2 of an inbox’s 6 a day: three groups cannot silence it, the ceiling holds', async () => {
        const verdicts = [];
        for (let minute = 0; minute < 5; minute++)
          verdicts.push(
            await verdict('victim', client('stranger-1'), at(`2026-11-26T08:1${minute}:00Z`)),
          );
        expect(verdicts).toEqual(['send', 'send', 'client-limit', 'client-limit', 'client-limit']);
        for (const stranger of ['stranger-2', 'stranger-3'])
          for (let i = 0; i < 3; i++)
            await verdict('victim', client(stranger), at('2026-11-26T08:20:00Z'));
        // Six sent: the ceiling is reached for everyone, the owner too (the risk left, docs).
        expect(await verdict('victim', client('owner'), at('2026-11-26T08:30:00Z'))).toBe(
          'address-limit',
        );
        expect(await verdict('victim', client('owner'), at('2026-11-27T08:10:30Z'))).toBe('send');
      });

      it('counts concurrent requests exactly', async () => {
        const now = at('2026-11-26T12:00:00Z');
        const verdicts = await Promise.all(
          Array.from({ length: 8 }, (_, i) => verdict('concurrent', client(`c-${i % 4}`), now)),
        );
        expect(verdicts.filter((one) => one === 'send')).toHaveLength(6);
      });

      it('past 4/5 of the hourly rate delays mails without proof of work, in order, and sends those with it', async () => {
        const base = at('2026-11-28T10:00:00Z');
        await database.db.delete(unprovenMails);
        const admissions = [];
        for (let i = 0; i < 10; i++)
          admissions.push(await admit(`site-${i}`, client(`g-${i}`), base));
        expect(admissions.map((one) => one.verdict)).toEqual([
          ...Array<string>(8).fill('send'),
          'delay',
          'delay',
        ]);
        const [first, second] = admissions.slice(8) as { sendAt: Date }[];
        // One every hour/10: six minutes apart, the first six minutes from now.
        expect(first!.sendAt.getTime() - base.getTime()).toBe(360_000);
        expect(second!.sendAt.getTime() - first!.sendAt.getTime()).toBe(360_000);
        expect(await isSiteBusy(database.db, base, limits)).toBe(true);
        expect(await admit('site-pow', client('g-pow', true), base)).toEqual({
          verdict: 'send',
          sendAt: base,
        });
        expect(
          await isSiteBusy(database.db, new Date(base.getTime() + 2 * 3_600_000), limits),
        ).toBe(false);
      });

      it('counts grievance links apart: strangers’ grievances leave the confirmations untouched', async () => {
        const now = at('2026-11-29T09:00:00Z');
        const grievances = [];
        for (const stranger of ['a', 'b', 'c'])
          grievances.push(await verdict('person', client(stranger), now, 'grievance'));
        expect(grievances).toEqual(['send', 'send', 'address-limit']);
        expect(await verdict('person', client('a'), now, 'grievance')).toBe('address-limit');
        expect(await verdict('person', client('owner'), now)).toBe('send');
      });

      it('purges counts older than a day', async () => {
        await purgeUnprovenMails(database.db, at('2026-12-01T00:00:00Z'));
        expect(await database.db.select().from(unprovenMails)).toEqual([]);
      });
    },
  );
}
