import { describe, expect, it } from 'vitest';
import { isReference, newReference } from './reference';

describe('isReference', () => {
  it('accepts what newReference makes', () => {
    for (let n = 0; n < 50; n++) {
      expect(isReference(newReference())).toBe(true);
      expect(isReference(newReference('PR'))).toBe(true);
    }
  });

  it('refuses any other text', () => {
    for (const value of [
      'PR-7K3P9QXD2',
      'PR-7K3P9QXD2MM',
      'pr-7k3p9qxd2m',
      'PR-7K3P9QXD2I',
      'XX-7K3P9QXD2M',
      'PR-7K3P9QXD2M ',
      'Call +91 555 0100 to claim your refund',
      '',
      undefined,
      ['PR-7K3P9QXD2M'],
    ])
      expect(isReference(value), String(value)).toBe(false);
  });
});
