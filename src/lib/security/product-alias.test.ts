import { describe, expect, it } from 'vitest';
import { productAlias } from './product-alias';

describe('productAlias', () => {
  it.each([
    ['/products/03', '/products/3'],
    ['/products/abc', '/products/0'],
    ['/products/%E2%82%B9', '/products/0'],
    ['/products/%ZZ', '/products/0'],
    ['/products/8', '/products/8'],
  ])('serves %s from the prerendered %s', (pathname, path) => {
    expect(productAlias(pathname)).toEqual({ kind: 'module', path });
  });

  it.each(['/products/9', '/products/-1', '/products/1.5'])(
    'answers %s with the 404 page',
    (pathname) => {
      expect(productAlias(pathname)).toEqual({ kind: 'not-found' });
    },
  );

  it.each(['/', '/products', '/products/1/opengraph-image', '/about-us'])(
    'leaves %s alone',
    (pathname) => {
      expect(productAlias(pathname)).toBeNull();
    },
  );
});
