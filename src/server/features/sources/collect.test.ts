import '@test/quiet-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { sourcesReport } from './report';
import { VIEWS_PER_CLIENT_MINUTE, VisitCollector, type PageView } from './collect';

const DAY = '2027-03-01';
const NOW = new Date('2027-03-01T06:00:00Z');
const ZONE = 'Asia/Kolkata';

/** A view of `/` by `address` (and, for a visitor of its own, `agent`). */
const view = (address: string, agent = 'Chrome'): PageView => ({
  day: DAY,
  path: '/',
  source: { referrerHost: null, utmSource: null, utmMedium: null, utmCampaign: null },
  device: 'desktop',
  visitor: { address, userAgent: agent, host: 'nirmaya.test' },
});

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('the visit collector', backend), () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(backend.kind);
    });
    afterAll(() => database?.dispose());

    it('counts an IPv6 /64 as one client in the per-minute limit, as every other limit does', async () => {
      const collector = new VisitCollector(database.db);
      const counted: boolean[] = [];
      // Each view from another address of the same /64: one client.
      for (let n = 1; n <= VIEWS_PER_CLIENT_MINUTE + 1; n++)
        counted.push(await collector.record(view(`2001:db8:7:9::${n.toString(16)}`), NOW));
      expect(counted.filter(Boolean)).toHaveLength(VIEWS_PER_CLIENT_MINUTE);
      expect(counted.at(-1)).toBe(false);
      // Another /64 is another client.
      expect(await collector.record(view('2001:db8:7:a::1'), NOW)).toBe(true);
    });

    it('past its caps, counts views only: no new client is tallied, no new visitor held', async () => {
      const collector = new VisitCollector(database.db, { trackedClients: 3, pendingVisitors: 3 });
      const before = await sourcesReport(database.db, { from: DAY, to: DAY }, { timeZone: ZONE });
      // Three clients fill both caps; a fourth is counted past the per-minute limit, untallied.
      for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3'])
        expect(await collector.record(view(address), NOW)).toBe(true);
      const fourth: boolean[] = [];
      for (let n = 0; n <= VIEWS_PER_CLIENT_MINUTE; n++)
        fourth.push(await collector.record(view('192.0.2.4', `agent ${n}`), NOW));
      expect(fourth.every(Boolean)).toBe(true);
      await collector.flush(DAY);
      const after = await sourcesReport(database.db, { from: DAY, to: DAY }, { timeZone: ZONE });
      expect(after.views - before.views).toBe(3 + VIEWS_PER_CLIENT_MINUTE + 1);
      expect(after.visitors - before.visitors).toBe(3);
    });
  });
}
