// Lighthouse (mobile preset: simulated slow 4G, 4x CPU slowdown) on one URL, bounded in time.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROME_FLAGS, CHROME_PATH, LIGHTHOUSE_TIMEOUT_MS } from './config.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/**
 * One Lighthouse run in a fresh Chromium. Resolves to the values the budgets need; rejects when
 * Lighthouse fails or takes longer than LIGHTHOUSE_TIMEOUT_MS (Chromium is killed either way).
 * @param {string} url
 */
export async function lighthouseRun(url, { throttlingMethod = 'simulate' } = {}) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    // The bench's TLS edge uses a throwaway self-signed certificate.
    chromeFlags: [...CHROME_FLAGS, '--ignore-certificate-errors'],
    logLevel: 'silent',
  });
  let timer;
  try {
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Lighthouse timed out after ${LIGHTHOUSE_TIMEOUT_MS} ms on ${url}`)),
        LIGHTHOUSE_TIMEOUT_MS,
      );
    });
    const run = lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      maxWaitForLoad: 45_000,
      // 'simulate' (Lantern, what PageSpeed Insights shows) or 'devtools' (applied throttling).
      throttlingMethod,
    });
    const result = await Promise.race([run, timeout]);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    return summarize(result.lhr);
  } finally {
    clearTimeout(timer);
    await chrome.kill();
  }
}

/** The numbers of one Lighthouse result that the bench reports. */
export function summarize(lhr) {
  if (lhr.runtimeError)
    throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const audit = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const scripts = requests.filter((item) => item.resourceType === 'Script');
  const failedAudits = Object.values(lhr.categories)
    .flatMap((category) =>
      category.auditRefs.filter((ref) => ref.weight > 0).map((ref) => lhr.audits[ref.id]),
    )
    .filter(
      (item) => item && item.score !== null && item.score < 1 && item.scoreDisplayMode === 'binary',
    )
    .map((item) => item.id);
  return {
    performance: lhr.categories.performance?.score ?? Number.NaN,
    accessibility: lhr.categories.accessibility?.score ?? Number.NaN,
    bestPractices: lhr.categories['best-practices']?.score ?? Number.NaN,
    seo: lhr.categories.seo?.score ?? Number.NaN,
    fcpMs: audit('first-contentful-paint'),
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    speedIndexMs: audit('speed-index'),
    ttfbMs: audit('server-response-time'),
    pageWeightKiB: audit('total-byte-weight') / 1024,
    jsKiB: scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024,
    /** The scripts without the page's own payload file (data, not code: defer-scripts.ts). */
    codeKiB:
      scripts
        .filter((item) => !String(item.url).includes('/_next/static/deferred/'))
        .reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024,
    jsUncompressedKiB: scripts.reduce((sum, item) => sum + (item.resourceSize ?? 0), 0) / 1024,
    requests: requests.length,
    /** Lighthouse's CPU benchmark of this machine at the time (higher is faster; ~1000+ on a desktop). */
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
    failedAudits: [...new Set(failedAudits)],
  };
}

/** Median of numbers (NaN when empty). */
export function median(values) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * `runs` Lighthouse runs of `url` (options as {@link lighthouseRun}), one after the other: the median of each value, the failed audits
 * of any run, and the errors of runs that did not complete (retried).
 */
export async function lighthouseMedian(url, runs, options = {}) {
  const results = [];
  const errors = [];
  // A run that fails (Chromium occasionally loses the trace: NO_NAVSTART) is retried, twice at most.
  for (let attempt = 0; results.length < runs && attempt < runs + 2; attempt += 1) {
    try {
      results.push(await lighthouseRun(url, options));
    } catch (error) {
      errors.push(String(error instanceof Error ? error.message : error));
    }
  }
  const keys = results[0]
    ? Object.keys(results[0]).filter((key) => typeof results[0][key] === 'number')
    : [];
  const medians = Object.fromEntries(
    keys.map((key) => [key, median(results.map((result) => result[key]))]),
  );
  return {
    url,
    runs: results.length,
    ...medians,
    failedAudits: [...new Set(results.flatMap((r) => r.failedAudits))],
    errors,
  };
}
