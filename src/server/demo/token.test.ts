import { describe, expect, it } from 'vitest';
import { BOOKING_TOKEN_MAX_AGE_MS, issueBookingToken, verifyBookingToken } from './token';

const secret = 'test-secret-0123456789abcdef0123456789abcdef';
const leadId = '4f1c2a7e-3b9d-4c55-9a1e-2d6f8b0c7e11';
const now = Date.parse('2026-03-05T00:00:00Z');

describe('booking tokens (only the visitor who asked can book)', () => {
  const token = issueBookingToken(leadId, secret, now);

  it('yields the lead it was issued for while fresh', () => {
    expect(verifyBookingToken(token, secret, now + 1_000)).toBe(leadId);
    expect(verifyBookingToken(token, secret, now + BOOKING_TOKEN_MAX_AGE_MS)).toBe(leadId);
  });

  it.each([
    ['missing', undefined, secret, now],
    ['expired', token, secret, now + BOOKING_TOKEN_MAX_AGE_MS + 1],
    ['another secret', token, `${secret}x`, now],
    ['another lead', token.replace(leadId, '00000000-0000-4000-8000-000000000000'), secret, now],
    ['a bare reference', 'NH-7K3P9QXD2M', secret, now],
    ['a form token', 'v1.abc.def.ghi', secret, now],
  ])('refuses %s', (_case, given, key, at) => {
    expect(verifyBookingToken(given, key, at)).toBeNull();
  });
});
