import ICAL from 'ical.js';
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from '@playwright/test';
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
 * (tests/production/demo-caps.test.ts sets it back).
 */
export const demoEnv = {
  DEMO_HOSTS: JSON.stringify(demoHosts),
  // Booking needs the address its e-mailed links point to; http is allowed on localhost only.
  SITE_URL: 'http://localhost:3000',
  DEMO_HOURS: 'Mon-Sun 00:00-24:00',
  DEMO_NOTICE_HOURS: '1',
  DEMO_BOOKING_DAYS: '2',
  DEMO_MAX_PER_CLIENT: '100',
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
