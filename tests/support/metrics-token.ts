/** The METRICS_TOKEN of the Playwright server: the specs read the health details with it. */
export const E2E_METRICS_TOKEN = 'e2e-metrics-token-0123456789abcdef';
