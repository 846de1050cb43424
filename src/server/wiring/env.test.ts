import { describe, expect, it } from 'vitest';
import { getEnv as getPlatformEnv } from '../platform/env';
import { getSiteEnv as getEnv } from './env';

const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
/** An environment of only these variables. */
const env = (variables: Record<string, string>) => getEnv({ NODE_ENV: 'test', ...variables });

describe('webhook configuration', () => {
  it('reads comma-separated endpoints with their secret', () => {
    const parsed = env({
      WEBHOOK_URLS: ' https://crm.example/hook , http://127.0.0.1:9000/in,https://crm.example/hook',
      WEBHOOK_SECRET: secret,
    });
    expect(parsed.WEBHOOK_URLS).toEqual(['https://crm.example/hook', 'http://127.0.0.1:9000/in']);
    expect(parsed.WEBHOOK_SECRET).toBe(secret);
  });

  it('has no endpoints when unset or empty', () => {
    expect(env({}).WEBHOOK_URLS).toEqual([]);
    expect(env({ WEBHOOK_URLS: '', WEBHOOK_SECRET: '' }).WEBHOOK_URLS).toEqual([]);
  });

  it.each([
    [{ WEBHOOK_URLS: 'https://crm.example/hook' }, 'WEBHOOK_SECRET'],
    [{ WEBHOOK_SECRET: secret }, 'WEBHOOK_SECRET'],
    [{ WEBHOOK_URLS: 'http://crm.example/hook', WEBHOOK_SECRET: secret }, 'WEBHOOK_URLS'],
    [{ WEBHOOK_URLS: 'https://user:pw@crm.example/hook', WEBHOOK_SECRET: secret }, 'WEBHOOK_URLS'],
    [{ WEBHOOK_URLS: 'ftp://crm.example/', WEBHOOK_SECRET: secret }, 'WEBHOOK_URLS'],
    [
      { WEBHOOK_URLS: 'https://crm.example/hook', WEBHOOK_SECRET: 'not-a-secret' },
      'WEBHOOK_SECRET',
    ],
    [
      { WEBHOOK_URLS: 'https://crm.example/hook', WEBHOOK_SECRET: 'whsec_c2hvcnQ=' },
      'WEBHOOK_SECRET',
    ],
  ])('refuses %j', (source, variable) => {
    expect(() => env(source)).toThrow(new RegExp(`Invalid environment: .*${variable}`));
  });
});

describe('demo booking configuration', () => {
  const hosts = JSON.stringify([
    { name: 'Asha Rao', email: 'asha@nirmaya.example', meetingUrl: 'https://meet.example/asha' },
    {
      name: 'Vikram Das',
      email: 'vikram@nirmaya.example',
      meetingUrl: 'https://meet.example/vikram',
      busyFeeds: ['https://calendar.example/v.ics'],
    },
  ]);

  it('is off with defaults when DEMO_HOSTS is unset', () => {
    const parsed = env({});
    expect(parsed.DEMO_HOSTS).toEqual([]);
    expect(parsed.DEMO_TIMEZONE).toBe('Asia/Kolkata');
    expect(parsed.DEMO_HOURS[1]).toEqual([
      { start: 600, end: 780 },
      { start: 840, end: 1080 },
    ]);
    expect(parsed.DEMO_HOURS[0]).toEqual([]);
    expect([
      parsed.DEMO_SLOT_MINUTES,
      parsed.DEMO_BUFFER_MINUTES,
      parsed.DEMO_NOTICE_HOURS,
      parsed.DEMO_MAX_PER_DAY,
    ]).toEqual([45, 15, 12, 4]);
    expect([parsed.DEMO_BOOKING_DAYS, parsed.DEMO_REMINDER_HOURS]).toEqual([14, 24]);
    expect(parsed.DEMO_CLOSED_DATES).toEqual([]);
    expect(parsed.DEMO_FEED_MAX_AGE_HOURS).toBe(6);
  });

  it('reads hosts, hours and closed dates', () => {
    const parsed = env({
      DEMO_HOSTS: hosts,
      SITE_URL: 'https://www.nirmaya.example',
      DEMO_TIMEZONE: 'Europe/London',
      DEMO_HOURS: 'Sat 10:00-13:00',
      DEMO_BUFFER_MINUTES: '0',
      DEMO_CLOSED_DATES: '2026-01-26, 2026-08-15',
    });
    expect(parsed.DEMO_HOSTS.map((host) => [host.email, host.busyFeeds.length])).toEqual([
      ['asha@nirmaya.example', 0],
      ['vikram@nirmaya.example', 1],
    ]);
    expect(parsed.DEMO_HOURS[6]).toEqual([{ start: 600, end: 780 }]);
    expect(parsed.DEMO_BUFFER_MINUTES).toBe(0);
    expect(parsed.DEMO_CLOSED_DATES).toEqual(['2026-01-26', '2026-08-15']);
  });

  it.each([
    ['https://www.nirmaya.example', true],
    ['https://www.nirmaya.example:8443/site/', true],
    ['http://localhost:3000', true],
    ['http://127.0.0.1:4100', true],
    ['https://localhost:8443', true],
    [undefined, false],
    ['', false],
    ['http://www.nirmaya.example', false],
    ['http://10.0.0.5:3000', false],
    ['http://localhost.nirmaya.example', false],
  ])(
    'with DEMO_HOSTS set, SITE_URL %j is %s (https:, or http: on localhost/127.0.0.1)',
    (siteUrl, ok) => {
      const variables: Record<string, string> = { DEMO_HOSTS: hosts };
      if (siteUrl !== undefined) variables.SITE_URL = siteUrl;
      if (ok) expect(env(variables).SITE_URL).toBe(siteUrl);
      else
        expect(() => env(variables)).toThrow(
          /SITE_URL: SITE_URL must be set to the https: address of the site when DEMO_HOSTS is set/,
        );
    },
  );

  it.each([
    ['SMTP_URL', { SMTP_URL: 'smtp://mail.example:25', LEADS_TO: 'sales@nirmaya.example' }],
    ['ADMIN_EMAILS', { ADMIN_EMAILS: 'boss@nirmaya.example' }],
  ])('with %s set, SITE_URL must be an https: address (loopback http excepted)', (_, set) => {
    const verdicts = Object.fromEntries(
      [
        'https://www.nirmaya.example',
        'http://localhost:3000',
        'http://127.0.0.1:4100',
        'http://[::1]:3000',
        undefined,
        'http://www.nirmaya.example',
        'http://10.0.0.5:3000',
        'https://user:pw@www.nirmaya.example',
      ].map((siteUrl) => {
        const variables: Record<string, string> = { ...set };
        if (siteUrl !== undefined) variables.SITE_URL = siteUrl;
        try {
          return [String(siteUrl), env(variables).SITE_URL === siteUrl];
        } catch (error) {
          expect(String(error)).toMatch(/SITE_URL: SITE_URL must be set to the https: address/);
          return [String(siteUrl), false];
        }
      }),
    );
    expect(verdicts).toEqual({
      'https://www.nirmaya.example': true,
      'http://localhost:3000': true,
      'http://127.0.0.1:4100': true,
      'http://[::1]:3000': true,
      undefined: false,
      'http://www.nirmaya.example': false,
      'http://10.0.0.5:3000': false,
      'https://user:pw@www.nirmaya.example': false,
    });
  });

  it('leaves SITE_URL alone while booking is off', () => {
    expect(env({ SITE_URL: 'http://www.nirmaya.example' }).SITE_URL).toBe(
      'http://www.nirmaya.example',
    );
  });

  it.each([
    [{ DEMO_HOSTS: '{not json' }, /DEMO_HOSTS: must be a JSON list/],
    [
      { DEMO_HOSTS: '[{"name":"A","email":"a@x.example","meetingUrl":"http://meet.example/a"}]' },
      /DEMO_HOSTS\.0\.meetingUrl/,
    ],
    [
      {
        DEMO_HOSTS: '[{"name":"A","email":"not-an-address","meetingUrl":"https://meet.example/a"}]',
      },
      /DEMO_HOSTS\.0\.email/,
    ],
    [
      {
        DEMO_HOSTS: `[${['A', 'B'].map((name) => `{"name":"${name}","email":"a@x.example","meetingUrl":"https://m.example/"}`).join(',')}]`,
      },
      /DEMO_HOSTS: each host e-mail must appear once/,
    ],
    [{ DEMO_TIMEZONE: 'Mars/Olympus' }, /DEMO_TIMEZONE: must be an IANA time zone/],
    [
      { DEMO_HOURS: 'Mon-Fri 10:00-25:00' },
      /DEMO_HOURS: DEMO_HOURS: bad time window "10:00-25:00"/,
    ],
    [{ DEMO_CLOSED_DATES: '2026-13-01' }, /DEMO_CLOSED_DATES/],
    [{ DEMO_SLOT_MINUTES: '0' }, /DEMO_SLOT_MINUTES/],
    [{ DEMO_FEED_MAX_AGE_HOURS: '0' }, /DEMO_FEED_MAX_AGE_HOURS/],
  ])('refuses %j', (source, message) => {
    expect(() => env(source)).toThrow(message);
  });
});

describe('the site secret in production', () => {
  const database = { DATABASE_URL: 'postgres://site@db.internal:5432/nirmaya' };

  it('refuses a shared database without FORM_SECRET, naming the variable and never the URL', () => {
    expect(() => env(database)).toThrow(/FORM_SECRET: FORM_SECRET is required/);
    expect(() => env(database)).not.toThrow(/db\.internal/);
  });

  it('accepts a shared database with FORM_SECRET, and PGlite without it', () => {
    const key = 'k'.repeat(32);
    expect(env({ ...database, FORM_SECRET: key }).FORM_SECRET).toBe(key);
    expect(env({}).FORM_SECRET).toBeUndefined();
  });
});

describe('env slices', () => {
  it("leaves a feature's variables to its slice, which the site's environment composes", () => {
    const source = { NODE_ENV: 'test', DEMO_SLOT_MINUTES: 'soon' } as NodeJS.ProcessEnv;
    expect(getPlatformEnv(source)).not.toHaveProperty('DEMO_SLOT_MINUTES');
    expect(() => getEnv(source)).toThrow(/Invalid environment: DEMO_SLOT_MINUTES/);
  });
});
