import { z } from 'zod';

/** Largest report body accepted, in bytes: a browser's batch of a few reports is a few KB. */
export const CSP_REPORT_MAX_BYTES = 16 * 1024;

/** One violation, as logged: page and blocked resource without query strings or fragments. */
export type CspViolation = {
  /** Origin and path of the page where it happened. */
  document: string;
  /** Origin and path of the blocked resource, or a keyword such as `inline` or `eval`. */
  blocked: string;
  /** The directive that refused it, e.g. `script-src-elem`. */
  directive: string;
  /** `enforce`, or `report` for a report-only policy. */
  disposition: string;
  /** Script and line that caused it, when the browser says. */
  source?: string;
  line?: number;
};

const text = z.string().max(2048);
const line = z.number().int().nonnegative().optional();

/** `report-uri` format (`application/csp-report`), still sent by browsers without `report-to`. */
const legacyReport = z.object({
  'csp-report': z.object({
    'document-uri': text,
    'blocked-uri': text.optional(),
    'effective-directive': text.optional(),
    'violated-directive': text.optional(),
    disposition: text.optional(),
    'source-file': text.optional(),
    'line-number': line,
  }),
});

/** Reporting API format (`application/reports+json`): a batch of reports of any type. */
const reportBatch = z
  .array(
    z.object({
      type: text,
      body: z.object({
        documentURL: text.optional(),
        blockedURL: text.optional(),
        effectiveDirective: text.optional(),
        disposition: text.optional(),
        sourceFile: text.optional(),
        lineNumber: line,
      }),
    }),
  )
  .max(100);

/** A URL cut to its origin and path; keywords (`inline`, `eval`, …) kept, cut to 64 characters. */
function withoutQuery(value: string | undefined): string {
  if (!value) return '';
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin + url.pathname;
    return url.protocol.replace(/:$/, '');
  } catch {
    return value.slice(0, 64);
  }
}

/**
 * The violations in a report body, in either format browsers send (spec: CSP Level 3 and the
 * Reporting API). Reports of other types in a Reporting API batch are skipped.
 * @param body the parsed JSON body
 * @returns the violations (maybe none), or `null` when the body is neither format
 */
export function parseCspReport(body: unknown): CspViolation[] | null {
  const legacy = legacyReport.safeParse(body);
  if (legacy.success) {
    const report = legacy.data['csp-report'];
    return [
      violation({
        document: report['document-uri'],
        blocked: report['blocked-uri'],
        directive: report['effective-directive'] ?? report['violated-directive'],
        disposition: report.disposition,
        source: report['source-file'],
        line: report['line-number'],
      }),
    ];
  }
  const batch = reportBatch.safeParse(body);
  if (!batch.success) return null;
  return batch.data
    .filter((report) => report.type === 'csp-violation')
    .map(({ body: report }) =>
      violation({
        document: report.documentURL,
        blocked: report.blockedURL,
        directive: report.effectiveDirective,
        disposition: report.disposition,
        source: report.sourceFile,
        line: report.lineNumber,
      }),
    );
}

function violation(fields: {
  document?: string;
  blocked?: string;
  directive?: string;
  disposition?: string;
  source?: string;
  line?: number;
}): CspViolation {
  return {
    document: withoutQuery(fields.document),
    blocked: withoutQuery(fields.blocked),
    directive: (fields.directive ?? '').slice(0, 64),
    disposition: fields.disposition === 'report' ? 'report' : 'enforce',
    ...(fields.source ? { source: withoutQuery(fields.source) } : {}),
    ...(fields.line !== undefined ? { line: fields.line } : {}),
  };
}
