/**
 * Where a visit came from, and what kind of device it came on: pure functions shared by the
 * browser (the beacon, the contact form's hidden fields) and the server (the beacon endpoint, the
 * contact page without JavaScript, the enquiry's validation). No zod, so the browser can import it.
 */

/** Longest referrer host or UTM value kept, in characters; longer ones are cut. */
export const SOURCE_VALUE_LIMIT = 64;

/** The source of a visit: its first page on this site, the site that sent it, its UTM tags. */
export type VisitSource = {
  /** Path of the visit's first page on this site, e.g. `/` (no query). */
  landingPage: string | null;
  /** Host of the page that linked to the first page (another site's), e.g. `www.google.com`. */
  referrerHost: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
};

/** The hidden form fields carrying a {@link VisitSource}, by key (also the `leads` columns). */
export const visitSourceFields = [
  'landingPage',
  'referrerHost',
  'utmSource',
  'utmMedium',
  'utmCampaign',
] as const satisfies readonly (keyof VisitSource)[];

/** Labels of the source fields: the console, the CSV export and a person's copy. */
export const visitSourceLabels: Record<keyof VisitSource, string> = {
  landingPage: 'First page of the visit',
  referrerHost: 'Referring site',
  utmSource: 'Campaign source (utm_source)',
  utmMedium: 'Campaign medium (utm_medium)',
  utmCampaign: 'Campaign (utm_campaign)',
};

/** A source that says nothing. */
export const emptySource: VisitSource = {
  landingPage: null,
  referrerHost: null,
  utmSource: null,
  utmMedium: null,
  utmCampaign: null,
};

/** The key under which the beacon keeps the tab's source in `sessionStorage`. */
export const SESSION_SOURCE_KEY = 'nv.source';

/**
 * A UTM tag as counted: lower case, each run of spaces or control characters one `-`, every
 * character but letters (with their marks), digits, `-`, `_` and `.` dropped, cut to
 * {@link SOURCE_VALUE_LIMIT} characters; `null` when nothing is left or not a string. A tag is a
 * label, never a sentence.
 */
export function cleanTag(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const clean = Array.from(
    value
      .toLowerCase()
      .replace(/[\p{Cc}\p{Cf}\s]+/gu, ' ')
      .trim()
      .replaceAll(' ', '-')
      .replace(/[^\p{L}\p{M}\p{N}._-]/gu, ''),
  )
    .slice(0, SOURCE_VALUE_LIMIT)
    .join('');
  return clean === '' ? null : clean;
}

/**
 * A referrer host as counted: lower case, without a leading `www.`, when it is a host name (dot-
 * separated labels of letters, digits and inner hyphens, each at most 63 characters) of at most
 * {@link SOURCE_VALUE_LIMIT} characters; else `null` (a longer host is dropped, not cut).
 */
export function cleanHost(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const host = value
    .trim()
    .toLowerCase()
    .replace(/^www\./, '');
  return host.length > SOURCE_VALUE_LIMIT || !HOST_NAME.test(host) ? null : host;
}

/** Dot-separated labels of letters, digits and inner hyphens, each at most 63 characters. */
const HOST_NAME = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/;

/**
 * A path on this site as kept: one leading `/` (not `//`), no query, fragment, backslash, space
 * or control character, at most 200 characters; else `null`.
 */
export function cleanPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 200) return null;
  return /^\/(?![/\\])[^?#\\\s\p{Cc}]*$/u.test(value) ? value : null;
}

/**
 * The host of `referrer` (a URL) when it is another site's, as {@link cleanHost} keeps it; `null`
 * when empty, malformed, not http(s), not a host name (an IP v6 address), too long, or one of
 * `ownHosts` (this site: an internal link is no source).
 */
export function referrerHostOf(
  referrer: string | null | undefined,
  ownHosts: readonly (string | null | undefined)[],
): string | null {
  if (!referrer || !URL.canParse(referrer)) return null;
  const url = new URL(referrer);
  if (!/^https?:$/.test(url.protocol)) return null;
  if (ownHosts.some((host) => host && host.toLowerCase() === url.host.toLowerCase())) return null;
  return cleanHost(url.hostname);
}

/**
 * The source of a visit whose first page is `pageUrl`, opened from `referrer`: the page's path,
 * the referrer's host (when another site's) and the page's `utm_source`, `utm_medium` and
 * `utm_campaign`.
 */
export function sourceOfLanding(
  pageUrl: URL,
  referrer: string | null | undefined,
  ownHosts: readonly (string | null | undefined)[] = [pageUrl.host],
): VisitSource {
  const query = pageUrl.searchParams;
  return {
    landingPage: cleanPath(pageUrl.pathname),
    referrerHost: referrerHostOf(referrer, ownHosts),
    utmSource: cleanTag(query.get('utm_source')),
    utmMedium: cleanTag(query.get('utm_medium')),
    utmCampaign: cleanTag(query.get('utm_campaign')),
  };
}

/**
 * A source as posted or sent (untrusted): each part cleaned ({@link cleanPath}, {@link cleanHost},
 * {@link cleanTag}), anything else dropped.
 */
export function readVisitSource(read: (key: keyof VisitSource) => unknown): VisitSource {
  return {
    landingPage: cleanPath(read('landingPage')),
    referrerHost: cleanHost(read('referrerHost')),
    utmSource: cleanTag(read('utmSource')),
    utmMedium: cleanTag(read('utmMedium')),
    utmCampaign: cleanTag(read('utmCampaign')),
  };
}

/** The kind of device a page was seen on. */
export type DeviceClass = 'mobile' | 'tablet' | 'desktop';

/**
 * The device class of a `User-Agent`, by simple rules (docs/operations.md): `tablet` for iPad,
 * Android without `Mobile`, Kindle/Silk, PlayBook or `Tablet`; `mobile` for `Mobi`, iPhone, iPod,
 * Android, Windows Phone, Opera Mini; `desktop` otherwise (an iPad asking for the desktop site
 * says Macintosh and counts as desktop).
 */
export function deviceClassOf(userAgent: string | null | undefined): DeviceClass {
  const ua = userAgent ?? '';
  if (/iPad|Tablet|Kindle|Silk|PlayBook/i.test(ua) || (/Android/i.test(ua) && !/Mobile/i.test(ua)))
    return 'tablet';
  if (/Mobi|iPhone|iPod|Android|Windows Phone|Opera Mini/i.test(ua)) return 'mobile';
  return 'desktop';
}

/**
 * The source of the tab's visit, kept in `storage` (the tab's `sessionStorage`) under
 * {@link SESSION_SOURCE_KEY}: read when the tab already has one, else taken from this page
 * (`page`, opened from `referrer`) and kept. A storage that refuses (private modes, full) gives
 * this page's source without keeping it. A kept value is taken as it is (a string, else null):
 * it was cleaned when kept, and whatever receives it (the beacon endpoint, the contact form's
 * action) cleans it again with {@link readVisitSource}, so the visit beacon carries no second
 * copy of the cleaning.
 */
export function tabSource(
  storage: Pick<Storage, 'getItem' | 'setItem'> | null,
  page: URL,
  referrer: string,
): VisitSource {
  try {
    const kept = storage?.getItem(SESSION_SOURCE_KEY);
    if (kept) {
      const parsed = JSON.parse(kept) as Record<string, unknown>;
      return Object.fromEntries(
        visitSourceFields.map((field) => [
          field,
          typeof parsed[field] === 'string' ? parsed[field] : null,
        ]),
      ) as VisitSource;
    }
  } catch {
    // unreadable: start again from this page
  }
  const source = sourceOfLanding(page, referrer);
  try {
    storage?.setItem(SESSION_SOURCE_KEY, JSON.stringify(source));
  } catch {
    // not kept: the next page starts its own
  }
  return source;
}
