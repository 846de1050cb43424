// The race test the booking was built to pass: "Race: 20 concurrent bookings of one slot with two hosts on PostgreSQL and two
// instances: exactly 2 succeed, 18 see fresh times; no host has two demos at once". Two standalone
// instances of the build share one PostgreSQL database and FORM_SECRET; 20 visitors, each with its
// own address (X-Forwarded-For, TRUST_PROXY=1, so the per-client limits stay out of the way), post
// the booking form of their confirmation for the same time at once, alternating between the
// instances, as a browser without JavaScript posts it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBookings } from '@/server/features/demos/schema';
import { leads } from '@/server/features/contact/schema';
import { openTestDatabase, type TestDatabase } from '@test/databases';
import { enquiryValues, hiddenInputs, loadForm, submitForm } from '@test/contact-form';
import { startProductionServer, type ProductionServer } from '@test/next-server';
import { TEST_SECRET } from '@test/form-token';

const hasPostgres = Boolean(process.env.TEST_DATABASE_URL);
const VISITORS = 20;
const hosts = [
  { name: 'Meera Iyer', email: 'meera@nirmaya.example', meetingUrl: 'https://meet.example/meera' },
  { name: 'Arjun Sen', email: 'arjun@nirmaya.example', meetingUrl: 'https://meet.example/arjun' },
];

/** Visitor `n`'s own address, sent as X-Forwarded-For with each of its requests. */
const visitor = (n: number) => ({ 'x-forwarded-for': `198.51.100.${n + 1}` });

/** The times a booking form in `html` offers (its radio buttons' ISO instants). */
const offered = (html: string) =>
  [...html.matchAll(/<input[^>]*type="radio"[^>]*name="start"[^>]*value="([^"]+)"/g)].map(
    (match) => match[1]!,
  );

/** The booking form of `html` with `start` chosen, as a browser without JavaScript posts it. */
function bookingBody(html: string, start: string): FormData {
  const body = new FormData();
  const entries: Array<[string, string]> = [...hiddenInputs(html), ['start', start]];
  for (const [name, value] of entries) body.append(name, value);
  return body;
}

describe.skipIf(!hasPostgres)('20 visitors race for one demo time on two instances', () => {
  let database: TestDatabase;
  const instances: ProductionServer[] = [];

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    const start = () =>
      startProductionServer({
        env: {
          DATABASE_URL: database.url,
          DATA_DIR: undefined,
          FORM_SECRET: TEST_SECRET,
          TRUST_PROXY: '1',
          SMTP_URL: '',
          WEBHOOK_URLS: undefined,
          WEBHOOK_SECRET: undefined,
          // Booking needs the address its e-mailed links point to (http only on localhost).
          SITE_URL: 'http://localhost:3000',
          DEMO_HOSTS: JSON.stringify(hosts),
          // Every hour of every day, so that times are free whenever the test runs.
          DEMO_HOURS: 'Mon-Sun 00:00-24:00',
          DEMO_NOTICE_HOURS: '1',
          DEMO_BOOKING_DAYS: '2',
          // The race is over booking itself: book at once, as with confirmation off.
          DEMO_CONFIRM_EMAIL: '0',
        },
        readyPath: '/api/health',
      });
    instances.push(...(await Promise.all([start(), start()])));
  });

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await database?.dispose();
  });

  it('books the time for exactly 2 (one per host); the other 18 see it gone and fresh times', async () => {
    const server = (n: number) => instances[n % 2]!.url;
    // Twenty demo requests, loaded and sent alternately on each instance.
    const forms = await Promise.all(
      Array.from({ length: VISITORS }, (_, n) =>
        loadForm(server(n), visitor(n), {}, '/contact-us?subject=demo'),
      ),
    );
    const confirmations = await Promise.all(
      forms.map((form, n) => submitForm(server(n), form, enquiryValues(n, 'race'), visitor(n))),
    );
    expect(confirmations.map((confirmation) => confirmation.accepted)).toEqual(
      Array(VISITORS).fill(true),
    );
    expect(confirmations[0]!.html).toContain('Pick a time for your demo');
    // A time every visitor was offered, away from the edges of the window.
    const times = offered(confirmations[0]!.html);
    const time = times[Math.floor(times.length / 2)]!;
    for (const { html } of confirmations) expect(offered(html)).toContain(time);

    const bodies = confirmations.map(({ html }) => bookingBody(html, time));
    const started = performance.now();
    const answers = await Promise.all(
      bodies.map((body, n) =>
        fetch(`${server(n)}/contact-us`, {
          method: 'POST',
          body,
          headers: { origin: server(n), ...visitor(n) },
          redirect: 'manual',
        }),
      ),
    );
    const ms = Math.round(performance.now() - started);
    expect(answers.map((answer) => answer.status)).toEqual(Array(VISITORS).fill(303));

    // Each visitor follows the redirect with its booking cookie, as a browser does.
    const pages = await Promise.all(
      answers.map(async (answer, n) => {
        const location = new URL(answer.headers.get('location')!, server(n));
        const cookie = answer.headers.get('set-cookie')!.split(';')[0]!;
        const page = await fetch(location, { headers: { cookie, ...visitor(n) } });
        return {
          n,
          location: location.pathname + location.search,
          cookie,
          html: await page.text(),
        };
      }),
    );
    const booked = pages.filter(({ location }) => location === '/contact-us/demo');
    const gone = pages.filter(({ location }) => location === '/contact-us/demo?outcome=gone');
    console.log(
      `demo race on two instances: ${booked.length} booked, ${gone.length} gone, ${ms} ms for ${VISITORS} concurrent bookings of ${time}`,
    );
    expect([booked.length, gone.length]).toEqual([2, 18]);
    for (const { html } of booked) expect(html).toContain('Your demo is booked');
    for (const { html } of gone) {
      expect(html).toContain('Sorry, that time was just taken. Please pick another.');
      expect(offered(html).length).toBeGreaterThan(0);
      expect(offered(html)).not.toContain(time);
    }

    // The fresh times are real: a visitor who lost the race books one from the page it was shown.
    const late = gone[0]!;
    const fresh = offered(late.html)[0]!;
    // The page's form has no action of its own: the browser posts it to the page's URL.
    const rebooked = await fetch(`${server(late.n)}${late.location}`, {
      method: 'POST',
      body: bookingBody(late.html, fresh),
      headers: { origin: server(late.n), cookie: late.cookie, ...visitor(late.n) },
      redirect: 'manual',
    });
    expect(rebooked.status).toBe(303);
    expect(rebooked.headers.get('location')).toMatch(/\/contact-us\/demo$/);

    // The database: the raced time went to both hosts, no host has two demos at once, and each
    // visitor who saw "booked" (and no other) has exactly one live demo.
    const live = await database.db
      .select({
        reference: leads.reference,
        hostEmail: demoBookings.hostEmail,
        startsAt: demoBookings.startsAt,
        endsAt: demoBookings.endsAt,
      })
      .from(demoBookings)
      .innerJoin(leads, eq(leads.id, demoBookings.leadId))
      .where(eq(demoBookings.status, 'booked'));
    expect(live).toHaveLength(3);
    expect(
      new Set(
        live
          .filter(({ startsAt }) => startsAt.toISOString() === new Date(time).toISOString())
          .map(({ hostEmail }) => hostEmail),
      ),
    ).toEqual(new Set(hosts.map((host) => host.email)));
    for (const { email } of hosts) {
      const demos = live
        .filter(({ hostEmail }) => hostEmail === email)
        .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
      for (const [i, demo] of demos.slice(1).entries())
        expect(demo.startsAt.getTime()).toBeGreaterThanOrEqual(demos[i]!.endsAt.getTime());
    }
    const winners = [...booked, late].map(({ n }) => confirmations[n]!.reference!);
    expect(live.map(({ reference }) => reference).sort()).toEqual(winners.sort());
  });
});
