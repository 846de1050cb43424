import { describe, expect, it } from 'vitest';
import { privacyRequestSchema } from '@/lib/privacy-request-schema';
import { addressHash } from '../../platform/people/address-hash';
import { issuePrivacyLink, PRIVACY_LINK_MAX_AGE_MS, verifyPrivacyLink } from './link-token';

const secret = 'test-secret-0123456789abcdef0123456789abcdef';
const at = Date.parse('2026-11-25T10:00:00Z');

describe('privacy request link', () => {
  it('carries the request (dots, Unicode and line breaks included) for 24 hours', () => {
    const request = { kind: 'correct' as const, email: 'a.b@x.example', details: 'Nom: Zoë.\nOk.' };
    const { token, nonce } = issuePrivacyLink(request, secret, at);
    expect(verifyPrivacyLink(token, secret, at + PRIVACY_LINK_MAX_AGE_MS)).toEqual({
      ok: true,
      request: { ...request, nonce, requestedAt: at },
    });
    expect(verifyPrivacyLink(token, secret, at + PRIVACY_LINK_MAX_AGE_MS + 1)).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(verifyPrivacyLink(token, 'another secret', at)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(verifyPrivacyLink(token.replace('.correct.', '.erase.'), secret, at)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('hashes an address the same in any case, and differently under another secret', () => {
    expect(addressHash(' Asha@Hospital.example ', secret)).toBe(
      addressHash('asha@hospital.example', secret),
    );
    expect(addressHash('asha@hospital.example', 'other')).not.toBe(
      addressHash('asha@hospital.example', secret),
    );
  });

  it('requires details only for a correction, a nominee and a grievance', () => {
    const parse = (kind: string, details = '') =>
      privacyRequestSchema.safeParse({ email: 'a@b.example', kind, details }).success;
    expect(['copy', 'erase', 'withdraw'].map((kind) => parse(kind))).toEqual([true, true, true]);
    expect(['correct', 'nominate', 'grievance'].map((kind) => parse(kind))).toEqual([
      false,
      false,
      false,
    ]);
    expect(parse('grievance', 'x')).toBe(true);
    expect(parse('sell')).toBe(false);
  });
});
