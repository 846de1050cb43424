import { describe, expect, it } from 'vitest';
import { demoRequestField, sourcePageField } from './contact-fields';
import { readEnquiryContext, refererPath } from './enquiry-context';
import { emptySource } from './visit-source';

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe('readEnquiryContext', () => {
  it('keeps a demo flag and a site path', () => {
    expect(
      readEnquiryContext(
        form({ [demoRequestField]: '1', [sourcePageField]: '/solutions/laboratory' }),
      ),
    ).toEqual({
      demoRequested: true,
      sourcePage: '/solutions/laboratory',
      ...emptySource,
    });
  });

  it.each([
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    '/a?b=1',
    '/a#b',
    '/a b',
    `/${'x'.repeat(200)}`,
    'solutions',
  ])('drops the source %j', (sourcePage) => {
    expect(
      readEnquiryContext(form({ [demoRequestField]: 'true', [sourcePageField]: sourcePage })),
    ).toEqual({
      demoRequested: false,
      sourcePage: null,
      ...emptySource,
    });
  });

  it('reads nothing from a form without the fields', () => {
    expect(readEnquiryContext(new FormData())).toEqual({
      demoRequested: false,
      sourcePage: null,
      ...emptySource,
    });
  });

  it("keeps the visit's source, cleaned: a path, a host name, tags as labels cut to 64 characters", () => {
    expect(
      readEnquiryContext(
        form({
          landingPage: '/products/0',
          referrerHost: 'News.Example',
          utmSource: ' Newsletter ',
          utmMedium: 'e\u0000mail',
          utmCampaign: `W${'i'.repeat(100)}`,
        }),
      ),
    ).toEqual({
      demoRequested: false,
      sourcePage: null,
      landingPage: '/products/0',
      referrerHost: 'news.example',
      utmSource: 'newsletter',
      utmMedium: 'e-mail',
      utmCampaign: `w${'i'.repeat(63)}`,
    });
    expect(readEnquiryContext(form({ landingPage: 'https://evil.example/' })).landingPage).toBe(
      null,
    );
    expect(readEnquiryContext(form({ referrerHost: 'see evil.example' })).referrerHost).toBe(null);
  });
});

describe('refererPath', () => {
  const hosts = ['nirmaya.example', null];
  it.each([
    ['https://nirmaya.example/solutions?utm_source=x#top', '/solutions'],
    ['http://nirmaya.example/', '/'],
    ['https://evil.example/solutions', null],
    ['https://nirmaya.example.evil.example/', null],
    ['ftp://nirmaya.example/file', null],
    ['not a url', null],
    [null, null],
  ])('reads %j as %j', (referer, path) => {
    expect(refererPath(referer, hosts)).toBe(path);
  });
});
