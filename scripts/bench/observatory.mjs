// The Mozilla HTTP Observatory's scoring rules (developer.mozilla.org/en-US/observatory/docs/
// tests_and_scoring), re-implemented for the headers of one response. Start at 100, apply each
// test's modifier; bonuses count only when the score is already at least 90. A+ is 100 or more.

/** Directive -> sources of a CSP header. */
function parsePolicy(header) {
  const policy = new Map();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().toLowerCase().split(/\s+/);
    if (name && !policy.has(name)) policy.set(name, sources);
  }
  return policy;
}

function cspTest(header) {
  if (!header)
    return { test: 'content-security-policy', result: 'csp-not-implemented', modifier: -25 };
  const policy = parsePolicy(header);
  const defaults = policy.get('default-src');
  const scripts = policy.get('script-src') ?? defaults ?? ['*'];
  const styles = policy.get('style-src') ?? defaults ?? ['*'];
  const objects = policy.get('object-src') ?? defaults ?? ['*'];
  const vouched = scripts.some(
    (s) => s.startsWith("'nonce-") || s.startsWith("'sha") || s === "'strict-dynamic'",
  );
  const insecure = (list) =>
    list.some(
      (s) => ['*', 'http:', 'https:', 'data:', 'blob:'].includes(s) || s.startsWith('http://'),
    );
  if ((scripts.includes("'unsafe-inline'") && !vouched) || insecure(scripts) || insecure(objects)) {
    return {
      test: 'content-security-policy',
      result: 'csp-implemented-with-unsafe-inline',
      modifier: -20,
    };
  }
  if (scripts.includes("'unsafe-eval'"))
    return {
      test: 'content-security-policy',
      result: 'csp-implemented-with-unsafe-eval',
      modifier: -10,
    };
  if (defaults?.length === 1 && defaults[0] === "'none'") {
    return {
      test: 'content-security-policy',
      result: 'csp-implemented-with-no-unsafe-default-src-none',
      modifier: 10,
    };
  }
  const result = styles.includes("'unsafe-inline'")
    ? 'csp-implemented-with-unsafe-inline-in-style-src-only'
    : 'csp-implemented-with-no-unsafe';
  return { test: 'content-security-policy', result, modifier: 0 };
}

function hstsTest(header, https) {
  if (!https)
    return {
      test: 'strict-transport-security',
      result: 'hsts-not-implemented-no-https',
      modifier: -5,
    };
  const maxAge = Number(/max-age=(\d+)/i.exec(header ?? '')?.[1] ?? Number.NaN);
  if (!header || !Number.isFinite(maxAge))
    return { test: 'strict-transport-security', result: 'hsts-not-implemented', modifier: -20 };
  if (maxAge < 15_768_000)
    return {
      test: 'strict-transport-security',
      result: 'hsts-implemented-max-age-less-than-six-months',
      modifier: -10,
    };
  return {
    test: 'strict-transport-security',
    result: 'hsts-implemented-max-age-at-least-six-months',
    modifier: 0,
  };
}

function referrerTest(header) {
  const value = (header ?? '').split(',').pop()?.trim().toLowerCase();
  if (!value)
    return { test: 'referrer-policy', result: 'referrer-policy-not-implemented', modifier: 0 };
  if (
    ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'].includes(
      value,
    )
  ) {
    return { test: 'referrer-policy', result: 'referrer-policy-private', modifier: 5 };
  }
  return {
    test: 'referrer-policy',
    result: 'referrer-policy-unsafe',
    modifier: value === 'unsafe-url' || value === 'no-referrer-when-downgrade' ? -5 : 0,
  };
}

function framingTest(headers, policy) {
  const ancestors = parsePolicy(policy).get('frame-ancestors');
  if (ancestors && !ancestors.includes('*'))
    return { test: 'x-frame-options', result: 'x-frame-options-implemented-via-csp', modifier: 5 };
  const xfo = headers.get('x-frame-options')?.toLowerCase();
  if (xfo === 'deny' || xfo === 'sameorigin')
    return { test: 'x-frame-options', result: 'x-frame-options-sameorigin-or-deny', modifier: 0 };
  return { test: 'x-frame-options', result: 'x-frame-options-not-implemented', modifier: -20 };
}

function cookiesTest(headers, https) {
  const cookies = headers.getSetCookie?.() ?? [];
  if (cookies.length === 0) return { test: 'cookies', result: 'cookies-not-found', modifier: 0 };
  const weak = cookies.filter(
    (cookie) => !/;\s*secure/i.test(cookie) || !/;\s*httponly/i.test(cookie),
  );
  if (weak.length && https)
    return { test: 'cookies', result: 'cookies-without-secure-flag', modifier: -20 };
  return { test: 'cookies', result: 'cookies-secure-with-httponly-sessions', modifier: 0 };
}

function sriTest(html, origin) {
  const external = [...(html ?? '').matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)]
    .map((m) => new URL(m[1], origin))
    .filter((u) => u.origin !== origin);
  if (external.length === 0)
    return {
      test: 'subresource-integrity',
      result: 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin',
      modifier: 0,
    };
  return {
    test: 'subresource-integrity',
    result: 'sri-not-implemented-and-external-scripts-loaded-securely',
    modifier: -5,
  };
}

/**
 * Observatory score, grade and per-test results for a response's `headers` and HTML. `https`
 * says the site is served over TLS (the bench asks as a TLS proxy would, with X-Forwarded-Proto).
 * The redirection test (http -> https on port 80) is the TLS proxy's job and is not scored here.
 */
export function observatoryScore(headers, html, { https, origin }) {
  const policy = headers.get('content-security-policy');
  const tests = [
    cspTest(policy),
    cookiesTest(headers, https),
    {
      test: 'cross-origin-resource-sharing',
      result:
        headers.get('access-control-allow-origin') === '*'
          ? 'cross-origin-resource-sharing-implemented-with-public-access'
          : 'cross-origin-resource-sharing-not-implemented',
      modifier: 0,
    },
    referrerTest(headers.get('referrer-policy')),
    hstsTest(headers.get('strict-transport-security'), https),
    sriTest(html, origin),
    {
      test: 'x-content-type-options',
      result:
        headers.get('x-content-type-options')?.toLowerCase() === 'nosniff'
          ? 'x-content-type-options-nosniff'
          : 'x-content-type-options-not-implemented',
      modifier: headers.get('x-content-type-options')?.toLowerCase() === 'nosniff' ? 0 : -5,
    },
    framingTest(headers, policy),
    {
      test: 'cross-origin-resource-policy',
      result: headers.get('cross-origin-resource-policy')
        ? `corp-implemented-with-${headers.get('cross-origin-resource-policy')}`
        : 'corp-not-implemented',
      modifier: 0,
    },
  ];
  const penalties = tests.filter((t) => t.modifier < 0).reduce((sum, t) => sum + t.modifier, 0);
  const bonuses = tests.filter((t) => t.modifier > 0).reduce((sum, t) => sum + t.modifier, 0);
  const base = 100 + penalties;
  const score = Math.max(0, base >= 90 ? base + bonuses : base);
  return { score, grade: grade(score), tests };
}

function grade(score) {
  const scale = [
    [100, 'A+'],
    [90, 'A'],
    [85, 'A-'],
    [80, 'B+'],
    [70, 'B'],
    [65, 'B-'],
    [60, 'C+'],
    [50, 'C'],
    [45, 'C-'],
    [40, 'D+'],
    [30, 'D'],
    [25, 'D-'],
  ];
  return scale.find(([min]) => score >= min)?.[1] ?? 'F';
}
