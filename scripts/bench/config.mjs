// Settings of `npm run bench`: routes, budgets, ports and the Chromium used by Lighthouse.

/**
 * Every public page, measured with Lighthouse and for document bytes (products/4 stands for the
 * nine tabs; the privacy-request form is public too).
 */
export const ROUTES = [
  '/',
  '/products',
  '/products/0',
  '/products/4',
  '/about-us',
  '/contact-us',
  '/terms-conditions',
  '/privacy-policy',
  '/privacy-requests',
  '/accessibility',
];

/** Routes measured for HTML throughput and latency with autocannon. */
export const LOAD_ROUTES = ['/', '/products/0', '/contact-us'];

/** Lighthouse runs per route; the table shows the median of each value. */
export const RUNS = 5;

/** Budgets (docs/performance.md). Bytes are KiB as Lighthouse reports them. */
export const BUDGETS = {
  /**
   * Lighthouse shows 100 from 0.995. This and the TBT budgets hold where the site's page does
   * worse than the same page without JavaScript, served with the site's headers (report.mjs).
   */
  performance: 0.995,
  accessibility: 1,
  bestPractices: 1,
  seo: 1,
  lcpMs: 2000,
  tbtMs: 150,
  cls: 0.01,
  pageWeightKiB: 500,
  /**
   * First-load script code (without the page's payload file) may exceed an empty Next.js page's
   * by at most this (compressed).
   */
  jsOverFloorKiB: 10,
  /** Simulated LCP at most this times the same page's without JavaScript (served by nginx). */
  lcpOverNoJs: 1.25,
  /** Observed LCP (applied throttling) at most this times the page's without JavaScript. */
  observedLcpOverNoJs: 1.05,
  /** TBT no higher than the empty Next.js page's in the same run (ms added to it). */
  tbtOverFloorMs: 0,
  /** TBT aimed at where the framework allows (shown, not enforced). */
  tbtTargetMs: 50,
  /** The HTML document on the wire (headers included, HTTP/1.1, brotli): one round trip. */
  documentBytes: 14_600,
  /** HTML through the reference edge (cache warm) at least this times nginx serving the files. */
  edgeOverDisk: 0.9,
};

export const PORT = Number(process.env.BENCH_PORT ?? 3130);
export const EMPTY_PORT = PORT + 1;
/** HTTPS (HTTP/2) ports of the TLS edges in front of the site and of the empty page. */
export const EDGE_PORT = PORT + 2;
export const EMPTY_EDGE_PORT = PORT + 3;

export { CHROME_FLAGS, CHROME_PATH } from '../chromium.mjs';

/** A Lighthouse run that takes longer than this is abandoned (its Chromium killed) and fails. */
export const LIGHTHOUSE_TIMEOUT_MS = 120_000;
/** Duration of each autocannon measurement (s). */
export const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
/** Enquiries posted by the submission-rate measurement. */
export const ENQUIRIES = Number(process.env.BENCH_ENQUIRIES ?? 300);
