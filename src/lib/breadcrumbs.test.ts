import { describe, expect, it } from 'vitest';
import { buildBreadcrumbs, collapseBreadcrumbs, crumbLabel } from './breadcrumbs';

const shape = (path: string) =>
  buildBreadcrumbs(path).map(
    ({ label, href, current }) => `${label}|${href}${current ? '|*' : ''}`,
  );

describe('buildBreadcrumbs (spec §2)', () => {
  it.each([
    // Spec cases first.
    ['/products/3', ['Home|/', 'Products|/products|*']],
    ['/terms-conditions', ['Home|/', 'Terms Conditions|/terms-conditions|*']],
    // Every route of the site.
    ['/', ['Home|/|*']],
    ['/products', ['Home|/', 'Products|/products|*']],
    ['/products/8', ['Home|/', 'Products|/products|*']],
    ['/products/0', ['Home|/', 'Products|/products', '0|/products/0|*']],
    ['/products/abc', ['Home|/', 'Products|/products', 'Abc|/products/abc|*']],
    ['/about-us', ['Home|/', 'About Us|/about-us|*']],
    ['/contact-us', ['Home|/', 'Contact Us|/contact-us|*']],
    ['/privacy-policy', ['Home|/', 'Privacy Policy|/privacy-policy|*']],
    // Edge cases: empty segments, case, parseInt semantics, trailing slash, encoding.
    ['//about-us//', ['Home|/', 'About Us|/about-us|*']],
    ['/ABOUT-us', ['Home|/', 'About Us|/ABOUT-us|*']],
    [
      '/products/12abc/reviews',
      ['Home|/', 'Products|/products', 'Reviews|/products/12abc/reviews|*'],
    ],
    ['/products/-4', ['Home|/', 'Products|/products|*']],
    ['/a--b', ['Home|/', 'A B|/a--b|*']],
    ['/caf%C3%A9-menu', ['Home|/', 'Café Menu|/caf%C3%A9-menu|*']],
    ['/bad%E0', ['Home|/', 'Bad%e0|/bad%E0|*']],
  ])('%s', (path, expected) => {
    expect(shape(path)).toEqual(expected);
  });
});

describe('crumbLabel', () => {
  it('capitalises each word and lower-cases the rest', () => {
    expect(crumbLabel('sNOMED-ct-support')).toBe('Snomed Ct Support');
  });
});

describe('collapseBreadcrumbs', () => {
  const trail = (n: number) =>
    buildBreadcrumbs('/' + Array.from({ length: n - 1 }, (_, i) => `s${i}`).join('/'));

  it('keeps a trail of 8 items whole', () => {
    expect(collapseBreadcrumbs(trail(8))).toHaveLength(8);
  });

  it('collapses 9 items to first, ellipsis, last', () => {
    const collapsed = collapseBreadcrumbs(trail(9));
    expect(collapsed).toEqual([
      { label: 'Home', href: '/', current: false },
      { ellipsis: true, hidden: 7 },
      { label: 'S7', href: '/s0/s1/s2/s3/s4/s5/s6/s7', current: true },
    ]);
  });
});
