/** Types of enquiries.mjs (used by tests/production/support/contact-form.ts). */
export function parseForm(html: string): Array<{ name: string; value: string | null }>;
export function measureEnquiries(
  baseUrl: string,
  options: { count: number; concurrency?: number },
): Promise<Record<string, unknown>>;
