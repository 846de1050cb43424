/** One item of a breadcrumb trail. */
export type Crumb = {
  /** Visible label, e.g. "Terms Conditions". */
  label: string;
  /** Cumulative path the item links to, e.g. `/products`. */
  href: string;
  /** True on the last shown item (rendered with `aria-current="page"`). */
  current: boolean;
};

/** An ellipsis standing for the items hidden by collapsing. */
export type CrumbEllipsis = { ellipsis: true; hidden: number };

/**
 * Items beyond which a trail collapses to first, ellipsis, last: the usual breadcrumb default
 * (MUI `Breadcrumbs` maxItems 8, one item before and one after), since spec §2 sets no limit.
 */
export const MAX_CRUMBS = 8;

/** Capitalises each hyphen-separated word and lower-cases the rest (spec §2). */
export function crumbLabel(segment: string): string {
  return segment
    .split('-')
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');
}

/** True when the segment parses as a non-zero integer (`parseInt` semantics), so it is omitted. */
function isNonZeroInteger(segment: string): boolean {
  const n = Number.parseInt(segment, 10);
  return !Number.isNaN(n) && n !== 0;
}

/**
 * Builds the breadcrumb trail of a path (spec §2, breadcrumb trail): Home (`/`) first, then each
 * non-empty segment as a link to the cumulative path, labelled by {@link crumbLabel}; segments that
 * parse as a non-zero integer are omitted; the last shown item is current.
 *
 * @param pathname URL path such as `/products/3` (query and hash must already be stripped);
 *   percent-encoded segments are decoded for the label.
 * @returns The trail, at least `[Home]`.
 */
export function buildBreadcrumbs(pathname: string): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  const trail: Crumb[] = [{ label: 'Home', href: '/', current: false }];
  segments.forEach((segment, index) => {
    if (isNonZeroInteger(segment)) return;
    trail.push({
      label: crumbLabel(safeDecode(segment)),
      href: `/${segments.slice(0, index + 1).join('/')}`,
      current: false,
    });
  });
  const last = trail[trail.length - 1];
  if (last) last.current = true;
  return trail;
}

/**
 * Collapses a trail longer than `max` items to its first and last around an ellipsis.
 *
 * @param trail The full trail from {@link buildBreadcrumbs}.
 * @param max Most items shown uncollapsed (default {@link MAX_CRUMBS}).
 */
export function collapseBreadcrumbs(
  trail: Crumb[],
  max: number = MAX_CRUMBS,
): (Crumb | CrumbEllipsis)[] {
  if (trail.length <= max) return trail;
  const first = trail[0]!;
  const last = trail[trail.length - 1]!;
  return [first, { ellipsis: true, hidden: trail.length - 2 }, last];
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
