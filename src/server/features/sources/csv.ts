import 'server-only';
import { toCsv } from '../contact';
import type { SourcesReport } from './report';

/**
 * The Sources page as CSV (RFC 4180, formula-safe through the contact export's toCsv): one
 * section per table (days, pages, referrers, campaigns, funnel), each with its header row, a
 * blank row between them.
 */
export function sourcesCsv(report: SourcesReport): string {
  const n = (value: number) => String(value);
  const rows: string[][] = [
    ['Sources', `${report.from} to ${report.to}`, 'visitors are the sum of daily unique visitors'],
    [],
    ['Day', 'Views', 'Visitors'],
    ...report.days.map((day) => [day.day, n(day.views), n(day.visitors)]),
    [],
    ['Page', 'Views', 'Visitors'],
    ...report.pages.map((row) => [row.label, n(row.views), n(row.visitors)]),
    [],
    ['Referring site', 'Views', 'Visitors'],
    ...report.referrers.map((row) => [row.label, n(row.views), n(row.visitors)]),
    [],
    ['Campaign', 'Source', 'Medium', 'Views', 'Visitors'],
    ...report.campaigns.map((row) => [
      row.label,
      row.source,
      row.medium,
      n(row.views),
      n(row.visitors),
    ]),
    [],
    [
      'Source',
      'Campaign',
      'Visitors',
      'Contact page views',
      'Enquiries',
      'Demos booked',
      'Demos held',
    ],
    ...[...report.funnel, report.total].map((row) => [
      row.source,
      row.campaign,
      n(row.visitors),
      n(row.contactViews),
      n(row.enquiries),
      n(row.demosBooked),
      n(row.demosHeld),
    ]),
  ];
  return toCsv(rows);
}
