import { describe, expect, it } from 'vitest';
import { getDemoEnv as getEnv } from './env';
import { bookingSettings, demoEnvSchema, isBookingOn } from './rules';

/** An environment of only these variables. */
const env = (variables: Record<string, string>) =>
  getEnv({ NODE_ENV: 'test', SITE_URL: 'https://nirmaya.example', ...variables });
const host = { name: 'Asha Rao', email: 'asha@nirmaya.example', meetingUrl: 'https://meet.ex/a' };

describe('demo booking rules (the DEMO_* variables)', () => {
  it('maps the defaults to the booking settings', () => {
    const parsed = env({ DEMO_HOSTS: JSON.stringify([host]) });
    expect(isBookingOn(parsed)).toBe(true);
    const settings = bookingSettings(parsed);
    expect(settings.rules).toMatchObject({
      timeZone: 'Asia/Kolkata',
      slotMinutes: 45,
      bufferMinutes: 15,
      noticeHours: 12,
      maxPerDay: 4,
      closedDates: [],
      bookingDays: 14,
    });
    expect(settings.rules.hours[1]).toEqual([
      { start: 600, end: 780 },
      { start: 840, end: 1080 },
    ]);
    expect(settings.reminderHours).toBe(24);
    expect(settings.hosts).toEqual([{ ...host, busyFeeds: [] }]);
    expect(settings.webhookUrls).toEqual([]);
    expect(settings.confirmEmail).toBe(true);
  });

  it('turns e-mail confirmation off only with an explicit DEMO_CONFIRM_EMAIL=0 or false, and refuses other words', () => {
    expect(bookingSettings(env({ DEMO_CONFIRM_EMAIL: '1' })).confirmEmail).toBe(true);
    expect(bookingSettings(env({ DEMO_CONFIRM_EMAIL: '' })).confirmEmail).toBe(true);
    expect(bookingSettings(env({ DEMO_CONFIRM_EMAIL: '0' })).confirmEmail).toBe(false);
    expect(bookingSettings(env({ DEMO_CONFIRM_EMAIL: 'false' })).confirmEmail).toBe(false);
    expect(() => env({ DEMO_CONFIRM_EMAIL: 'yes' })).toThrow(/DEMO_CONFIRM_EMAIL/);
  });

  it('is what the environment composes: the same schema parses the DEMO_* variables alone', () => {
    const alone = demoEnvSchema.parse({ DEMO_MAX_PER_DAY: '2', DEMO_BUFFER_MINUTES: '' });
    expect([alone.DEMO_MAX_PER_DAY, alone.DEMO_BUFFER_MINUTES]).toEqual([2, 15]);
    expect(isBookingOn(alone)).toBe(false);
    expect(bookingSettings(env({ DEMO_MAX_PER_DAY: '2' })).rules.maxPerDay).toBe(2);
  });

  it('accepts busy feeds over https: only, with a message that says so', () => {
    const feed = 'https://calendar.example/private-1f2e/basic.ics';
    expect(
      env({ DEMO_HOSTS: JSON.stringify([{ ...host, busyFeeds: [feed] }]) }).DEMO_HOSTS,
    ).toEqual([{ ...host, busyFeeds: [feed] }]);
    const plain = JSON.stringify([{ ...host, busyFeeds: ['http://calendar.example/basic.ics'] }]);
    expect(() => env({ DEMO_HOSTS: plain })).toThrow(/busy feed must be an https: address/);
  });
});
