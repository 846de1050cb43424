import ICAL from 'ical.js';
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from '@playwright/test';
import { backdatedBody, hiddenInputs, loadForm, type EnquiryValues } from '@test/contact-form';
import { until } from '@test/enquiry';
import type { TestSmtpServer } from '@test/smtp';

/** The WCAG 2.0, 2.1 and 2.2 rules of levels A and AA (as e2e/a11y.spec.ts). */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** The sales people of the booking tests (`DEMO_HOSTS`). */
export const demoHosts = [
  { name: 'Meera Iyer', email: 'meera@nirmaya.example', meetingUrl: 'https://meet.example/meera' },
  { name: 'Arjun Sen', email: 'arjun@nirmaya.example', meetingUrl: 'https://meet.example/arjun' },
];

/**
 * Booking variables for a production server under test: every hour of every day, so that times
 * are free whenever the test runs, over the next two days with one hour's notice; every test
 * visitor books from 127.0.0.1, so the cap of upcoming demos per client address is raised
 * (tests/production/demo-caps.test.ts sets it back). Bookings are not confirmed by e-mail
 * (`DEMO_CONFIRM_EMAIL=0`, the documented switch): these tests test the booking itself;
 * tests/production/demo-confirm.test.ts turns it back on (its default) and tests the confirmation.
 */
export const demoEnv = {
  DEMO_HOSTS: JSON.stringify(demoHosts),
  // Booking needs the address its e-mailed links point to; http is allowed on localhost only.
  SITE_URL: 'http://localhost:3000',
  DEMO_HOURS: 'Mon-Sun 00:00-24:00',
  DEMO_NOTICE_HOURS: '1',
  DEMO_BOOKING_DAYS: '2',
  DEMO_MAX_PER_CLIENT: '100',
  DEMO_CONFIRM_EMAIL: '0',
};

/**
 * The whole environment of a booking test's production server: PGlite in `dataDir`, e-mail to the
 * test SMTP server at `smtpUrl`, no webhooks, demoEnv, and a booking limit of `rateLimitMax` posts
 * per client and day.
 */
export const demoServerEnv = (dataDir: string, smtpUrl: string, rateLimitMax: number) => ({
  DATA_DIR: dataDir,
  DATABASE_URL: undefined,
  SMTP_URL: smtpUrl,
  LEADS_TO: 'leads@nirmaya.example',
  LEADS_FROM: 'Nirmaya website <no-reply@nirmaya.example>',
  WEBHOOK_URLS: undefined,
  WEBHOOK_SECRET: undefined,
  ...demoEnv,
  RATE_LIMIT_MAX: String(rateLimitMax),
  RATE_LIMIT_WINDOW_MINUTES: '1440',
});

/** A demo request as a visitor types it into the contact form, but for the e-mail address. */
export const demoVisitor = {
  firstName: 'Asha',
  lastName: 'Rao',
  organization: 'City General Hospital',
  subject: 'Request a demo of Nirmaya HIMS',
  message: '',
};

/** The contact page of a demo request ("Schedule a Demo" leads there). */
const DEMO_PAGE = '/contact-us?subject=demo';

/** The times (ISO instants) the booking step in `html` offers, its radio buttons' values in order. */
export const offeredStarts = (html: string): string[] =>
  [...html.matchAll(/<input[^>]*type="radio"[^>]*name="start"[^>]*value="([^"]+)"/g)].map(
    (match) => match[1]!,
  );

/**
 * Asks for a demo as a visitor without JavaScript: loads the demo request's contact page (with
 * `headers`, e.g. a `referer`), fills in {@link demoVisitor} with `values` over it and posts it at
 * once, its form token backdated past the minimum age (the server must run with the test's
 * `FORM_SECRET`, as startProductionServer's do).
 * @returns the answer's HTML (the booking step when the enquiry was accepted)
 * @throws when the page cannot be loaded, or on network errors
 */
export async function requestDemo(
  baseUrl: string,
  values: Partial<EnquiryValues> & { email: string },
  headers: Record<string, string> = {},
): Promise<string> {
  const form = await loadForm(baseUrl, headers, {}, DEMO_PAGE);
  const answer = await fetch(`${baseUrl}${DEMO_PAGE}`, {
    method: 'POST',
    body: backdatedBody(form, { ...demoVisitor, ...values }),
    headers: { origin: baseUrl },
  });
  return answer.text();
}

/**
 * Books `start` with the booking form of the booking step `html`, as a plain POST; the redirect is
 * not followed.
 * @returns the answer: 303 to the booking page, with the booking cookie, when the form was valid
 */
export function bookTime(baseUrl: string, html: string, start: string): Promise<Response> {
  const body = new FormData();
  const entries: Array<[string, string]> = [...hiddenInputs(html), ['start', start]];
  for (const [name, value] of entries) body.append(name, value);
  return fetch(`${baseUrl}${DEMO_PAGE}`, {
    method: 'POST',
    body,
    headers: { origin: baseUrl },
    redirect: 'manual',
  });
}

/**
 * Posts the contact form, then books a time: {@link requestDemo} as `values.email`, then
 * {@link bookTime} for the first time offered.
 * @returns the booking step's HTML, the time booked (ISO instant), the booking's answer and its
 * cookie (`name=value`)
 * @throws when no time is offered or the booking is not answered with a redirect and a cookie
 */
export async function requestAndBook(
  baseUrl: string,
  values: Partial<EnquiryValues> & { email: string },
): Promise<{ step: string; start: string; booked: Response; cookie: string }> {
  const step = await requestDemo(baseUrl, values);
  const [start] = offeredStarts(step);
  if (!start) throw new Error(`No demo time offered to ${values.email}`);
  const booked = await bookTime(baseUrl, step, start);
  const cookie = booked.headers.get('set-cookie')?.split(';')[0];
  if (booked.status !== 303 || !cookie)
    throw new Error(`Booking ${start} for ${values.email} answered ${booked.status}`);
  return { step, start, booked, cookie };
}

/** axe's WCAG A/AA violations on the page as it is, one line each (`<label> <rule>: <target>`). */
export async function axeViolations(page: Page, label: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
  return violations.flatMap(({ id, nodes }) =>
    nodes.map((node) => `${label} ${id}: ${node.target.join(' ')}`),
  );
}

/**
 * The start (ISO instant) of the demo invitation the visitor `email` received, read with an
 * independent iCalendar parser (ical.js); waits up to 60 s for the e-mail.
 */
export async function invitedStart(smtp: TestSmtpServer, email: string): Promise<string> {
  const find = () =>
    smtp.received.find(
      (mail) =>
        mail.envelope.to.includes(email) &&
        mail.parsed.subject?.startsWith('Your Nirmaya HIMS demo'),
    );
  await until(async () => find() !== undefined, 60_000);
  const part = find()!.parsed.attachments.find(
    (attachment) => attachment.mimeType === 'text/calendar',
  )!;
  const text =
    typeof part.content === 'string' ? part.content : new TextDecoder().decode(part.content);
  const vevent = new ICAL.Component(ICAL.parse(text) as unknown[]).getFirstSubcomponent('vevent')!;
  return new ICAL.Event(vevent).startDate.toJSDate().toISOString();
}

/**
 * Collects the Content-Security-Policy violations of every page of `context`: the
 * `securitypolicyviolation` event (with JavaScript) and Chromium's console error (also without).
 */
export async function watchCspViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeFunction('__reportCspViolation', (violation: string) =>
    violations.push(violation),
  );
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation?: (v: string) => void })
        .__reportCspViolation;
      report?.(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline code'}`);
    });
  });
  context.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      violations.push(message.text());
    }
  });
  return violations;
}

/**
 * axe's violations for what a visitor without JavaScript sees on `page` (a context with scripts
 * disabled, where axe itself cannot run): the page's HTML, scripts removed, opened at the same
 * address and width in a context that may run axe, with the site's own stylesheets.
 */
export async function axeViolationsWithoutScripts(page: Page, label: string): Promise<string[]> {
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script\s*>/gi, '');
  const context = await page.context().browser()!.newContext({ viewport: page.viewportSize() });
  try {
    const copy = await context.newPage();
    await copy.route(page.url(), (route) =>
      route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }),
    );
    await copy.goto(page.url());
    return await axeViolations(copy, label);
  } finally {
    await context.close();
  }
}

/**
 * Waits for the booking picker (the calendar grid) to replace the plain list of times. Its code is
 * fetched on the first interaction with the booking form: the keyboard reaching its first time is
 * one, and focus does not tick a time, so a time already chosen stays chosen.
 */
export async function openPicker(page: Page): Promise<void> {
  await page.locator('input[name="start"]').first().focus({ timeout: 30_000 });
  await page.getByRole('grid').waitFor({ timeout: 30_000 });
}
