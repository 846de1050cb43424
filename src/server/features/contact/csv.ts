import 'server-only';

/** First characters that make a spreadsheet read a cell as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): quoted, inner quotes doubled, and a cell that starts with `=`, `+`,
 * `-`, `@`, tab or CR prefixed with `'` so a spreadsheet shows it as text instead of running it.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** Rows to CSV text with CRLF line ends (the header row first). */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
