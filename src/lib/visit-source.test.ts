import { describe, expect, it } from 'vitest';
import {
  cleanHost,
  cleanTag,
  deviceClassOf,
  referrerHostOf,
  SESSION_SOURCE_KEY,
  sourceOfLanding,
  tabSource,
} from './visit-source';

describe('deviceClassOf', () => {
  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120 Mobile Safari/537.36', 'mobile'],
    ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) Mobile/15E148', 'tablet'],
    ['Mozilla/5.0 (Linux; Android 13; SM-X200) Chrome/120 Safari/537.36', 'tablet'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120 Safari/537.36', 'desktop'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Safari/605.1.15', 'desktop'],
    ['', 'desktop'],
  ])('%s is %s', (agent, device) => {
    expect(deviceClassOf(agent)).toBe(device);
  });
});

describe('cleanTag and referrerHostOf', () => {
  it('lower-cases, spaces to -, other characters dropped, cuts at 64 characters', () => {
    expect(cleanTag('  Winter\tSale\u0000 ')).toBe('winter-sale');
    expect(cleanTag('Spring Sale 2026!')).toBe('spring-sale-2026');
    expect(cleanTag('Call +91 98765 43210 <b>now</b>')).toBe('call-91-98765-43210-bnowb');
    expect(cleanTag('q1_launch.v2')).toBe('q1_launch.v2');
    expect(cleanTag('दिवाली ऑफ़र')).toBe('दिवाली-ऑफ़र');
    expect(cleanTag('x'.repeat(100))).toHaveLength(64);
    expect(cleanTag('   ')).toBeNull();
    expect(cleanTag('!!!')).toBeNull();
    expect(cleanTag(7)).toBeNull();
  });

  it('keeps a referrer host only when it is a host name of at most 64 characters', () => {
    expect(cleanHost('WWW.News.Example')).toBe('news.example');
    expect(cleanHost('localhost')).toBe('localhost');
    expect(cleanHost('203.0.113.5')).toBe('203.0.113.5');
    expect(cleanHost('buy cheap pills at evil.example')).toBeNull();
    expect(cleanHost('-bad.example')).toBeNull();
    expect(cleanHost('a..b')).toBeNull();
    expect(cleanHost(`${'a'.repeat(60)}.example`)).toBeNull();
    expect(cleanHost(7)).toBeNull();
  });

  it("keeps another site's host, never this site's nor a non-web URL", () => {
    expect(referrerHostOf('https://www.Google.com/search?q=his', ['nirmaya.example'])).toBe(
      'google.com',
    );
    expect(referrerHostOf('https://nirmaya.example/about-us', ['nirmaya.example'])).toBeNull();
    expect(referrerHostOf('android-app://com.slack/', ['nirmaya.example'])).toBeNull();
    expect(referrerHostOf('not a url', ['nirmaya.example'])).toBeNull();
  });
});

describe('the source of a visit', () => {
  const landing = new URL('https://nirmaya.example/?utm_source=Newsletter&utm_campaign=winter');

  it('is the first page, its referrer and its UTM tags', () => {
    expect(sourceOfLanding(landing, 'https://news.example/item/1')).toEqual({
      landingPage: '/',
      referrerHost: 'news.example',
      utmSource: 'newsletter',
      utmMedium: null,
      utmCampaign: 'winter',
    });
  });

  it("is kept for the tab: a later page of the visit reports the first page's source", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
    };
    const first = tabSource(storage, landing, 'https://news.example/');
    const later = tabSource(storage, new URL('https://nirmaya.example/about-us'), '');
    expect(later).toEqual(first);
    expect(JSON.parse(store.get(SESSION_SOURCE_KEY)!)).toMatchObject({ utmCampaign: 'winter' });
    // A storage that refuses gives this page's own source.
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(tabSource(refusing, landing, '').utmCampaign).toBe('winter');
  });
});
