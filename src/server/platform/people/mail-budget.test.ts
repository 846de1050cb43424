import '@test/quiet-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { admitUnprovenMail, purgeUnprovenMails } from './mail-budget';
import { unprovenMails } from './schema';

const limits = { perAddressPerDay: 3, sitePerHour: 5 };
const at = (iso: string) => new Date(iso);

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('the budget of mails to unproven addresses', backend),
    () => {
      let database: TestDatabase;
      beforeAll(async () => {
        database = await openTestDatabase(backend.kind);
      });
      afterAll(() => database?.dispose());

      const admit = (emailHash: string, now: Date) =>
        database.db.transaction((tx) =>
          admitUnprovenMail(tx, { emailHash, kind: 'test.mail', now }, limits),
        );

      it('sends 3 to one address over 24 hours, none more, and again once the first is a day old', async () => {
        const verdicts = [];
        for (let minute = 0; minute < 10; minute++)
          verdicts.push(await admit('victim', at(`2026-11-26T08:${String(10 + minute)}:00Z`)));
        console.log(`10 requests for one address: ${verdicts.join(', ')}`);
        expect(verdicts.filter((verdict) => verdict === 'send')).toHaveLength(3);
        expect(verdicts.slice(3).every((verdict) => verdict === 'address-limit')).toBe(true);
        expect(await admit('victim', at('2026-11-27T08:09:00Z'))).toBe('address-limit');
        expect(await admit('victim', at('2026-11-27T08:10:30Z'))).toBe('send');
      });

      it('counts concurrent requests exactly', async () => {
        const now = at('2026-11-26T12:00:00Z');
        const verdicts = await Promise.all(
          Array.from({ length: 8 }, () => admit('concurrent', now)),
        );
        expect(verdicts.filter((verdict) => verdict === 'send')).toHaveLength(3);
      });

      it('refuses every address once the site-wide hourly limit is reached', async () => {
        const base = at('2026-11-28T10:00:00Z');
        const verdicts = [];
        for (let i = 0; i < 7; i++) verdicts.push(await admit(`site-${i}`, base));
        expect(verdicts).toEqual([
          'send',
          'send',
          'send',
          'send',
          'send',
          'site-limit',
          'site-limit',
        ]);
        expect(await admit('site-new', new Date(base.getTime() + 3_600_001))).toBe('send');
      });

      it('purges counts older than a day', async () => {
        await purgeUnprovenMails(database.db, at('2026-11-30T00:00:00Z'));
        expect(await database.db.select().from(unprovenMails)).toEqual([]);
      });
    },
  );
}
