import { expect } from 'vitest';
import { ACTION_BODY_LIMIT_KB } from '@/lib/http/request-limits';

/** What the page of each refusal status says (src/content/request-errors.ts, src/app/not-found.tsx). */
const pageText: Record<number, RegExp[]> = {
  400: [/Error 400/, /could not be read/],
  404: [/Error 404/, /Page not found/],
  405: [/Error 405/, /does not accept that request/],
  413: [/Error 413/, new RegExp(`at most ${ACTION_BODY_LIMIT_KB} KB`), /still in the form/],
  414: [/Error 414/, /too long/],
};

/**
 * Asserts that `html` is the refusal page of `status` in the site's layout (header with the
 * navigation, main content, footer), as the proxy serves it.
 */
export function expectRefusalPage(status: number, html: string, contentType: string | null): void {
  expect(contentType, `content type of the ${status} page`).toMatch(/^text\/html/);
  for (const text of [/<header\b/, /<main\b/, /<footer\b/, ...(pageText[status] ?? [/$^/])])
    expect(text.test(html), `the ${status} page shows ${text}`).toBe(true);
  // Served at the refused URL, not at its own: no breadcrumb of the page's path (404: the 404 page's).
  if (status !== 404)
    expect(html, `the ${status} page has no breadcrumb`).not.toContain('aria-label="Breadcrumb"');
}

/** Counts of answers by kind of request and status, printed as a table at the end of a fuzz. */
export class Histogram {
  private readonly counts = new Map<string, Map<number, number>>();

  /** Counts one answer with `status` to a request of `kind`. */
  add(kind: string, status: number): void {
    const row = this.counts.get(kind) ?? new Map<number, number>();
    row.set(status, (row.get(status) ?? 0) + 1);
    this.counts.set(kind, row);
  }

  /** Number of answers with a status of 500 or more. */
  serverErrors(): number {
    let n = 0;
    for (const row of this.counts.values())
      for (const [status, count] of row) if (status >= 500) n += count;
    return n;
  }

  /** One line per kind: `kind  runs  status×count …`, and the total. */
  toString(): string {
    const lines: string[] = [];
    let total = 0;
    for (const [kind, row] of [...this.counts].sort(([a], [b]) => a.localeCompare(b))) {
      const runs = [...row.values()].reduce((a, b) => a + b, 0);
      total += runs;
      const statuses = [...row]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}×${count}`);
      lines.push(`${kind.padEnd(22)} ${String(runs).padStart(5)}  ${statuses.join(' ')}`);
    }
    lines.push(`${'total'.padEnd(22)} ${String(total).padStart(5)}  5xx: ${this.serverErrors()}`);
    return lines.join('\n');
  }
}
