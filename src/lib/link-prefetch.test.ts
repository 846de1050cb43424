import { describe, expect, it } from 'vitest';
import { linkPrefetch } from './link-prefetch';

describe('linkPrefetch', () => {
  it('does not prefetch the contact form, with or without a query or fragment', () => {
    expect(linkPrefetch('/contact-us')).toBe(false);
    expect(linkPrefetch('/contact-us?subject=demo')).toBe(false);
    expect(linkPrefetch('/contact-us#contact-form-heading')).toBe(false);
  });

  it("leaves prerendered pages to Next.js's default", () => {
    for (const href of ['/', '/about-us', '/products/3', '/privacy-policy?x=1', '/contact-usage'])
      expect(linkPrefetch(href)).toBeUndefined();
  });
});
