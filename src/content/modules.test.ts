import { describe, expect, it } from 'vitest';
import { modules, type Module } from './modules';

/** The nine module titles, in the order of the specification's product page (spec §2). */
const specTitles = [
  'Registration',
  'Clinical Services',
  'Laboratory',
  'Inpatient Management',
  'Stock Management',
  'Billing & Accounting',
  'Reporting',
  'PACS Integration',
  'SNOMED CT Support',
];

/**
 * Every item the spec's module list (§1) names, as a term that must appear (case-insensitive) in
 * the module's text.
 */
const specItems: Record<string, string[]> = {
  Registration: [
    'demographic',
    'photograph',
    'address',
    'contact',
    'socio-economic',
    'search',
    'documents',
    'tagged to the visit',
    'camera',
    'mobile',
    'annotation',
  ],
  'Clinical Services': [
    'customizable clinical forms',
    'numeric',
    'text',
    'coded',
    'true/false',
    'date',
    'date-time',
    'duration',
    'CSV',
    'open templates',
    'ICD-10',
    'created, stopped or refilled',
    'route',
    'frequency',
    'dosage',
    'instructions',
    'regimen',
    'configur',
    'patient dashboards',
    'printed',
  ],
  Laboratory: [
    'separate',
    'receive',
    'orders from the EMR',
    'results',
    'referrals',
    'sample labels',
    'panels',
    'single tests',
    'result entry',
    'accepting or rejecting',
    'printout',
    'outside laboratories',
    'lab dashboard',
    'referral report',
    'tests-performed report',
  ],
  'Inpatient Management': [
    'inpatient dashboard',
    'wards',
    'physical spaces',
    'beds laid out spatially',
    'admi',
    'discharg',
    'transfer',
    'nurses',
    'assign',
  ],
  'Stock Management': [
    'warehouse',
    'hierarchy',
    'product',
    'supplier',
    'batch',
    'expiry',
    'stock movement',
    'stock levels',
    'reduced automatically',
    'invoice is paid',
    'sales',
    'discounts',
    'credits',
    'purchases',
    'inventory status',
    'organizational accounts',
  ],
  'Billing & Accounting': [
    'financial parameters',
    'draft bill',
    'drug order',
    'closest to expiry',
    'credit',
    'discounts',
    'taxes',
    'financial record',
    'reports',
  ],
  Reporting: [
    'analytics database',
    'personal data',
    'removed',
    'canned reports',
    'configur',
    'PDF',
    'CSV',
    'HTML',
    'custom report',
    'migrat',
  ],
  'PACS Integration': ['investigation order', 'radiology devices', 'results', 'DICOM'],
  'SNOMED CT Support': [
    'terminology search',
    'diagnos',
    'contraindication alerts',
    'severity',
    'info',
    'warning',
    'critical',
    'FHIR',
  ],
};

/** All prose of a module: summary, description paragraphs, feature headings and items. */
function allText(entry: Module): string[] {
  return [
    entry.title,
    entry.summary,
    ...entry.description,
    ...entry.features.flatMap((group) => [group.heading, ...group.items]),
  ];
}

/** Words of the summary, description and feature items (the content a visitor reads). */
function wordCount(entry: Module): number {
  return [entry.summary, ...entry.description, ...entry.features.flatMap((group) => group.items)]
    .join(' ')
    .split(/\s+/)
    .filter(Boolean).length;
}

describe('modules registry', () => {
  it('lists the nine modules in the spec order', () => {
    expect(modules.map((entry) => entry.title)).toEqual(specTitles);
  });

  it('numbers the modules 0-8 and links each to /products/{id}', () => {
    modules.forEach((entry, index) => {
      expect(entry.id).toBe(index);
      expect(entry.link).toBe(`/products/${index}`);
    });
  });

  it.each(specTitles.map((title, index) => [title, index] as const))(
    '%s has a one-sentence summary, two paragraphs and 2-4 feature groups of 3-6 items',
    (_title, index) => {
      const entry = modules[index]!;
      expect(entry.summary.trim()).toMatch(/^[A-Z].*\.$/);
      expect(entry.summary.match(/[.!?](\s|$)/g)).toHaveLength(1);
      expect(entry.description).toHaveLength(2);
      expect(entry.features.length).toBeGreaterThanOrEqual(2);
      expect(entry.features.length).toBeLessThanOrEqual(4);
      for (const group of entry.features) {
        expect(group.heading.trim()).not.toBe('');
        expect(group.items.length).toBeGreaterThanOrEqual(3);
        expect(group.items.length).toBeLessThanOrEqual(6);
      }
      expect(entry.icon).toBeTruthy();
    },
  );

  it.each(specTitles.map((title, index) => [title, index] as const))(
    '%s has at least 150 words of content',
    (_title, index) => {
      expect(wordCount(modules[index]!)).toBeGreaterThanOrEqual(150);
    },
  );

  it.each(Object.entries(specItems))(
    '%s covers every item of the spec module list',
    (title, terms) => {
      const entry = modules.find((candidate) => candidate.title === title)!;
      const text = allText(entry).join(' ').toLowerCase();
      for (const term of terms) {
        expect(text, `"${term}" in ${title}`).toContain(term.toLowerCase());
      }
    },
  );

  it('contains no placeholder text', () => {
    for (const entry of modules) {
      for (const text of allText(entry)) {
        expect(text.trim()).not.toBe('');
        expect(text).not.toMatch(/TODO|lorem|ipsum|TBD/i);
      }
    }
  });
});
