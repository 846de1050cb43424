import { CSP_REPORT_ENDPOINT, CSP_REPORT_PATH } from './csp';

/**
 * Browser features the site never uses, denied to itself and to any frame. Only names Chromium
 * knows: an unknown name logs a console error on every page.
 */
const DENIED_FEATURES = [
  'accelerometer',
  'autoplay',
  'bluetooth',
  'browsing-topics',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
] as const;

/**
 * Security headers that are the same on every response, pages and static files alike (set from
 * next.config.ts). The Content-Security-Policy and HSTS depend on the request and come from
 * src/proxy.ts.
 */
export const staticSecurityHeaders: ReadonlyArray<{ key: string; value: string }> = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  {
    key: 'Permissions-Policy',
    value: DENIED_FEATURES.map((feature) => `${feature}=()`).join(', '),
  },
  { key: 'Cross-Origin-Resource-Policy', value: 'same-origin' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  // Legacy twin of CSP frame-ancestors 'none', for browsers without CSP level 2.
  { key: 'X-Frame-Options', value: 'DENY' },
  // Where the CSP's `report-to` sends violation reports (Reporting API).
  { key: 'Reporting-Endpoints', value: `${CSP_REPORT_ENDPOINT}="${CSP_REPORT_PATH}"` },
];
