import { describe, expect, it } from 'vitest';
import { parseCspReport } from './csp-report';

describe('parseCspReport', () => {
  it('reads a report-uri report (application/csp-report), without query strings', () => {
    const body = {
      'csp-report': {
        'document-uri': 'https://nirmaya.example/contact-us?utm_source=mail#form',
        'blocked-uri': 'https://evil.example/x.js?id=1',
        'violated-directive': 'script-src-elem',
        'effective-directive': 'script-src-elem',
        disposition: 'enforce',
        'source-file': 'https://nirmaya.example/_next/static/chunks/a.js?v=2',
        'line-number': 12,
      },
    };
    expect(parseCspReport(body)).toEqual([
      {
        document: 'https://nirmaya.example/contact-us',
        blocked: 'https://evil.example/x.js',
        directive: 'script-src-elem',
        disposition: 'enforce',
        source: 'https://nirmaya.example/_next/static/chunks/a.js',
        line: 12,
      },
    ]);
  });

  it('reads a Reporting API batch (application/reports+json), skipping other report types', () => {
    const body = [
      {
        type: 'csp-violation',
        url: 'https://nirmaya.example/',
        body: {
          documentURL: 'https://nirmaya.example/',
          blockedURL: 'inline',
          effectiveDirective: 'script-src-elem',
          disposition: 'enforce',
        },
      },
      { type: 'deprecation', url: 'https://nirmaya.example/', body: { id: 'x', message: 'y' } },
      {
        type: 'csp-violation',
        body: {
          documentURL: 'https://nirmaya.example/about-us',
          blockedURL: 'eval',
          effectiveDirective: 'script-src',
        },
      },
    ];
    expect(parseCspReport(body)).toEqual([
      {
        document: 'https://nirmaya.example/',
        blocked: 'inline',
        directive: 'script-src-elem',
        disposition: 'enforce',
      },
      {
        document: 'https://nirmaya.example/about-us',
        blocked: 'eval',
        directive: 'script-src',
        disposition: 'enforce',
      },
    ]);
  });

  it('keeps only the scheme of data: and blob: resources', () => {
    const [violation] = parseCspReport({
      'csp-report': {
        'document-uri': 'https://nirmaya.example/',
        'blocked-uri': 'data:text/javascript;base64,AAAA',
      },
    })!;
    expect(violation!.blocked).toBe('data');
  });

  it.each([
    ['a string', 'hello'],
    ['an empty object', {}],
    ['a legacy report without its page', { 'csp-report': { 'blocked-uri': 'inline' } }],
    ['a batch entry without a body', [{ type: 'csp-violation' }]],
    ['an overlong field', { 'csp-report': { 'document-uri': 'x'.repeat(3000) } }],
    [
      'a batch of 101 reports',
      Array.from({ length: 101 }, () => ({ type: 'csp-violation', body: {} })),
    ],
  ])('refuses %s', (_, body) => {
    expect(parseCspReport(body)).toBeNull();
  });
});
