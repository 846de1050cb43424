import '@test/quiet-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { GET, HEAD, POST } from '@/app/api/v/route';
import { PEER_ADDRESS_HEADER } from '@/lib/http/peer-address';
import { recordFunnelEvent, setFunnelSink } from '../../platform/funnel';
import { existingCollector } from './beacon';
import { VisitCollector } from './collect';
import { funnelCounter } from './funnel';
import { purgeSources } from './purge';
import { sourcesReport } from './report';
import { visitHashes, visitSalts } from './schema';

const ZONE = 'Asia/Kolkata';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1';

/** A beacon request as the browser's `sendBeacon` sends it from `address`. */
function beacon(
  body: unknown,
  headers: Record<string, string> = {},
  address = '203.0.113.10',
): Request {
  return new Request('http://nirmaya.test/api/v', {
    method: 'POST',
    headers: {
      host: 'nirmaya.test',
      origin: 'http://nirmaya.test',
      'content-type': 'text/plain;charset=UTF-8',
      'user-agent': CHROME,
      [PEER_ADDRESS_HEADER]: address,
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const winter = {
  landingPage: '/',
  referrerHost: null,
  utmSource: 'newsletter',
  utmMedium: 'email',
  utmCampaign: 'winter',
};

const today = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date()).slice(0, 10);

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle('visit counts and the funnel', backend), () => {
    let database: TestDatabase;
    const holder = globalThis as typeof globalThis & {
      __nirmayaDatabase?: Promise<unknown>;
      __nirmayaVisits?: VisitCollector;
    };

    beforeAll(async () => {
      database = await openTestDatabase(backend.kind);
      // The route handler reads the process's database and collector: this suite's.
      holder.__nirmayaDatabase = Promise.resolve(database);
      holder.__nirmayaVisits = undefined;
    });
    afterAll(async () => {
      holder.__nirmayaDatabase = undefined;
      holder.__nirmayaVisits = undefined;
      setFunnelSink(undefined);
      await database?.dispose();
    });

    it('counts a visit of three pages from a campaign once as a visitor, never sets a cookie', async () => {
      const answers = await Promise.all([
        POST(beacon({ path: '/', ...winter })),
        POST(beacon({ path: '/about-us', ...winter })),
        POST(beacon({ path: '/contact-us', ...winter })),
        POST(beacon({ path: '/', ...emptyish() }, { 'user-agent': PHONE }, '198.51.100.7')),
      ]);
      for (const answer of answers) {
        expect(answer.status).toBe(204);
        expect(answer.headers.get('set-cookie')).toBeNull();
      }
      await existingCollector()!.flush(today());
      const report = await sourcesReport(
        database.db,
        { from: today(), to: today() },
        { timeZone: ZONE },
      );
      console.log(`views ${report.views}, visitors ${report.visitors}`);
      expect(report.views).toBe(4);
      expect(report.visitors).toBe(2);
      expect(report.campaigns).toEqual([
        { label: 'winter', source: 'newsletter', medium: 'email', views: 3, visitors: 1 },
      ]);
      const row = report.funnel.find((entry) => entry.campaign === 'winter');
      expect(row).toMatchObject({ source: 'newsletter', visitors: 1, contactViews: 1 });
    });

    it('does not count bots, prefetches, HEAD, Do-Not-Track, Global Privacy Control, other sites or unknown pages', async () => {
      const before = await viewsToday();
      const refused = [
        beacon(
          { path: '/' },
          {
            'user-agent':
              'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
          },
        ),
        beacon({ path: '/' }, { 'user-agent': 'Mozilla/5.0 HeadlessChrome/131' }),
        beacon({ path: '/' }, { 'sec-purpose': 'prefetch' }),
        beacon({ path: '/' }, { purpose: 'prefetch' }),
        beacon({ path: '/' }, { dnt: '1' }),
        beacon({ path: '/' }, { 'sec-gpc': '1' }),
        beacon({ path: '/' }, { origin: 'https://evil.example' }),
        beacon({ path: '/' }, { origin: '' }),
        beacon({ path: '/admin' }),
        beacon({ path: '/no-such-page' }),
        beacon('not json'),
        beacon(`{"path":"/","x":"${'x'.repeat(1_100)}"}`),
      ];
      for (const request of refused) expect((await POST(request)).status).toBe(204);
      expect(HEAD().status).toBe(204);
      await existingCollector()!.flush(today());
      expect(await viewsToday()).toBe(before);
    });

    it('counts a page seen without JavaScript from its noscript image, campaign from the page', async () => {
      const before = await viewsToday();
      const answer = await GET(
        new Request('http://nirmaya.test/api/v', {
          headers: {
            host: 'nirmaya.test',
            'user-agent': CHROME,
            referer: 'http://nirmaya.test/products/0?utm_source=print&utm_campaign=expo',
            [PEER_ADDRESS_HEADER]: '192.0.2.44',
          },
        }),
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/gif');
      // From another site's page, the image counts nothing.
      await GET(
        new Request('http://nirmaya.test/api/v', {
          headers: { host: 'nirmaya.test', 'user-agent': CHROME, referer: 'https://evil.example/' },
        }),
      );
      await existingCollector()!.flush(today());
      expect(await viewsToday()).toBe(before + 1);
      const report = await sourcesReport(
        database.db,
        { from: today(), to: today() },
        { timeZone: ZONE },
      );
      expect(report.campaigns.map((row) => row.label)).toContain('expo');
    });

    it('salts each day afresh and forgets the salt and visitor hashes once the day is over', async () => {
      const collector = new VisitCollector(database.db);
      const view = (day: string) => ({
        day,
        path: '/',
        source: emptyish(),
        device: 'desktop' as const,
        visitor: { address: '192.0.2.1', userAgent: CHROME, host: 'nirmaya.test' },
      });
      await collector.record(view('2027-01-01'), new Date('2027-01-01T10:00:00Z'));
      await collector.record(view('2027-01-01'), new Date('2027-01-01T11:00:00Z'));
      await collector.flush('2027-01-01');
      await collector.record(view('2027-01-02'), new Date('2027-01-02T10:00:00Z'));
      await collector.flush('2027-01-02');
      const salts = await database.db.select().from(visitSalts);
      const hashes = await database.db.select().from(visitHashes);
      // The same visitor on two days: one unique each day, two salts never side by side.
      expect(salts.map((row) => row.day)).toEqual(['2027-01-02']);
      expect(new Set(hashes.map((row) => row.day))).toEqual(new Set(['2027-01-02']));
      const report = await sourcesReport(
        database.db,
        { from: '2027-01-01', to: '2027-01-02' },
        { timeZone: ZONE },
      );
      expect(report.days).toEqual([
        { day: '2027-01-01', views: 2, visitors: 1 },
        { day: '2027-01-02', views: 1, visitors: 1 },
      ]);
      expect(report.visitors).toBe(2);
      // Nothing ran at midnight: the daily purge of a later day still forgets them.
      await purgeSources(
        database.db,
        { timeZone: ZONE, retentionMonths: 25 },
        new Date('2027-01-05T00:00:00Z'),
      );
      expect(await database.db.select().from(visitSalts)).toEqual([]);
      expect(await database.db.select().from(visitHashes)).toEqual([]);
    });

    it('keeps a real campaign named after a script sends made-up tags at midnight; tags are labels', async () => {
      const collector = new VisitCollector(database.db);
      const day = '2027-02-01';
      const at = new Date('2027-01-31T18:31:00Z');
      const view = (address: string, utmCampaign: string, referrerHost: string | null = null) => ({
        day,
        path: '/',
        source: { referrerHost, utmSource: 'newsletter', utmMedium: null, utmCampaign },
        device: 'desktop' as const,
        visitor: { address, userAgent: CHROME, host: 'nirmaya.test' },
      });
      // Sixty made-up campaigns from one client just after midnight, then a real one.
      for (let i = 0; i < 60; i++) await collector.record(view('192.0.2.66', `junk-${i}`), at);
      await collector.record(view('198.51.100.20', 'winter-sale'), new Date(at.getTime() + 60_000));
      await collector.flush(day);
      const report = await sourcesReport(database.db, { from: day, to: day }, { timeZone: ZONE });
      const campaigns = report.funnel.map((row) => row.campaign);
      expect(campaigns).toContain('winter-sale');
      // The script's own few keep their names; its other 55 views count as "other".
      expect(campaigns.filter((campaign) => campaign.startsWith('junk-'))).toHaveLength(5);
      expect(report.campaigns.find((row) => row.label === 'other')?.views).toBe(55);

      // What the beacon sends is cleaned: a tag is a label, a referrer must be a host name.
      await POST(
        beacon({
          path: '/',
          landingPage: '/',
          referrerHost: 'Buy cheap pills at evil.example',
          utmSource: 'Mail Out',
          utmMedium: null,
          utmCampaign: 'Call NOW: +91 98765 43210!',
        }),
      );
      await existingCollector()?.flush(today());
      const now = await sourcesReport(
        database.db,
        { from: today(), to: today() },
        { timeZone: ZONE },
      );
      expect(now.campaigns).toContainEqual(
        expect.objectContaining({ label: 'call-now-91-98765-43210', source: 'mail-out' }),
      );
      expect(JSON.stringify(now)).not.toMatch(/pills|Buy cheap/);
    });

    it('counts enquiries and demos when they happen; a cancelled demo is never held; old counts go after the retention', async () => {
      setFunnelSink(funnelCounter(ZONE));
      const source = {
        referrerHost: null,
        utmSource: 'newsletter',
        utmMedium: null,
        utmCampaign: 'spring',
      };
      const at = new Date('2026-03-02T06:00:00Z');
      await database.db.transaction(async (tx) => {
        await recordFunnelEvent(tx, { step: 'enquiry', at, source });
        await recordFunnelEvent(tx, { step: 'enquiry', at, source });
        await recordFunnelEvent(tx, {
          step: 'demo_booked',
          at,
          source,
          bookingId: 'b-held',
          startsAt: new Date('2026-03-04T05:00:00Z'),
        });
        await recordFunnelEvent(tx, {
          step: 'demo_booked',
          at,
          source,
          bookingId: 'b-cancelled',
          startsAt: new Date('2026-03-04T06:00:00Z'),
        });
        await recordFunnelEvent(tx, { step: 'demo_cancelled', at, bookingId: 'b-cancelled' });
      });
      const range = { from: '2026-03-01', to: '2026-03-31' };
      const before = await sourcesReport(database.db, range, {
        timeZone: ZONE,
        now: new Date('2026-03-03T00:00:00Z'),
      });
      expect(before.total).toMatchObject({ enquiries: 2, demosBooked: 2, demosHeld: 0 });
      const after = await sourcesReport(database.db, range, {
        timeZone: ZONE,
        now: new Date('2026-03-05T00:00:00Z'),
      });
      expect(after.funnel).toEqual([
        {
          source: 'newsletter',
          campaign: 'spring',
          visitors: 0,
          contactViews: 0,
          enquiries: 2,
          demosBooked: 2,
          demosHeld: 1,
        },
      ]);
      // 25 months later, the daily purge deletes that month's counts.
      await purgeSources(
        database.db,
        { timeZone: ZONE, retentionMonths: 25 },
        new Date('2028-05-01T00:00:00Z'),
      );
      const gone = await sourcesReport(database.db, range, { timeZone: ZONE });
      expect(gone.total).toMatchObject({ enquiries: 0, demosBooked: 0, demosHeld: 0 });
    });

    async function viewsToday(): Promise<number> {
      const report = await sourcesReport(
        database.db,
        { from: today(), to: today() },
        { timeZone: ZONE },
      );
      return report.views;
    }
  });
}

function emptyish() {
  return {
    landingPage: null,
    referrerHost: null,
    utmSource: null,
    utmMedium: null,
    utmCampaign: null,
  };
}
