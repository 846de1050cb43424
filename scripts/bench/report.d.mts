/** Types of report.mjs. */
export function budgetMisses(
  m: Record<string, unknown>,
  jsFloorKiB: number,
  floor?: { tbtMs?: number },
): string[];
export function fmt(value: number, digits?: number): string;
export function printTable(headers: string[], rows: unknown[][]): void;
export function lighthouseRow(name: string, m: Record<string, unknown>): string[];
export const LIGHTHOUSE_HEADERS: string[];
