// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BEACON_PATH, startVisitBeacon } from './visit-beacon';
import { SESSION_SOURCE_KEY } from './visit-source';

/** A fresh window state: a URL, the tab's storage empty, a beacon recorder. */
function visit(url: string, nav: { doNotTrack?: string; globalPrivacyControl?: boolean } = {}) {
  history.replaceState(null, '', url);
  sessionStorage.clear();
  document.body.innerHTML =
    '<form><input type="hidden" name="landingPage" value=""/><input type="hidden" name="utmCampaign" value="x"/><input name="name" value="A"/></form>';
  const sent: { path: string; utmCampaign: string | null; landingPage: string | null }[] = [];
  const sendBeacon = vi.fn((url: string, body: string) => {
    expect(url).toBe(BEACON_PATH);
    sent.push(JSON.parse(body));
    return true;
  });
  // jsdom's window with the test's navigator.
  const win = {
    document,
    history,
    location,
    sessionStorage,
    addEventListener: window.addEventListener.bind(window),
    setTimeout: (callback: () => void) => setTimeout(callback),
    navigator: { sendBeacon, doNotTrack: null, ...nav },
  } as unknown as Window;
  return { win, sent };
}

describe('the visit beacon', () => {
  const originalPushState = history.pushState;
  beforeEach(() => {
    history.pushState = originalPushState;
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts the page with the tab source in the tasks after its start, then each client-side navigation once', () => {
    const { win, sent } = visit('/?utm_source=newsletter&utm_campaign=winter');
    startVisitBeacon(win);
    // Nothing in the loader's task: the storage access, then the beacon, each in a task of its own.
    expect(sent).toEqual([]);
    expect(sessionStorage.getItem(SESSION_SOURCE_KEY)).toBeNull();
    vi.advanceTimersToNextTimer();
    expect(sessionStorage.getItem(SESSION_SOURCE_KEY)).not.toBeNull();
    expect(sent).toEqual([]);
    vi.advanceTimersToNextTimer();
    expect(sent).toEqual([
      expect.objectContaining({ path: '/', utmCampaign: 'winter', landingPage: '/' }),
    ]);
    expect(JSON.parse(sessionStorage.getItem(SESSION_SOURCE_KEY)!)).toMatchObject({
      utmSource: 'newsletter',
    });
    history.pushState(null, '', '/about-us');
    history.pushState(null, '', '/about-us#team'); // same page: not counted again
    history.pushState(null, '', '/products/2');
    // Back: the browser has changed the URL when `popstate` fires.
    history.replaceState(null, '', '/about-us');
    window.dispatchEvent(new PopStateEvent('popstate'));
    vi.runAllTimers();
    expect(sent.map(({ path }) => path)).toEqual(['/', '/about-us', '/products/2', '/about-us']);
    // The tab's source stays the first page's.
    expect(sent.every(({ utmCampaign }) => utmCampaign === 'winter')).toBe(true);
  });

  it('fills the contact form source fields, and the posted entries', () => {
    const { win } = visit('/contact-us?utm_campaign=spring');
    startVisitBeacon(win);
    vi.runAllTimers();
    const form = document.querySelector('form')!;
    const input = (name: string) => form.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
    expect(input('landingPage').value).toBe('/contact-us');
    expect(input('utmCampaign').value).toBe('spring');
    // React's hydration sets the inputs back to the server's values: the posted entries still carry
    // the tab's source.
    input('utmCampaign').value = '';
    const formData = new FormData(form);
    const event = Object.assign(new Event('formdata', { bubbles: true }), { formData });
    form.dispatchEvent(event);
    expect(formData.get('utmCampaign')).toBe('spring');
    expect(formData.get('name')).toBe('A');
    expect(formData.has('utmSource')).toBe(false); // not a field of this form: not added
  });

  it('sends nothing in the console, with Do-Not-Track or with Global Privacy Control', () => {
    for (const [url, nav] of [
      ['/admin/enquiries', {}],
      ['/', { doNotTrack: '1' }],
      ['/', { globalPrivacyControl: true }],
    ] as const) {
      const { win, sent } = visit(url, nav);
      startVisitBeacon(win);
      vi.runAllTimers();
      expect(sent, `${url} ${JSON.stringify(nav)}`).toEqual([]);
    }
  });
});
