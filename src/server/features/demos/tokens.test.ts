import { describe, expect, it } from 'vitest';
import {
  BOOKING_TOKEN_MAX_AGE_MS,
  CONFIRM_TOKEN_MAX_AGE_MS,
  confirmPageUrl,
  issueBookingToken,
  issueConfirmToken,
  issueManageToken,
  managePageUrl,
  verifyBookingToken,
  verifyConfirmToken,
  verifyManageToken,
} from './tokens';

const secret = 'test-secret-0123456789abcdef0123456789abcdef';
const leadId = '4f1c2a7e-3b9d-4c55-9a1e-2d6f8b0c7e11';
const now = Date.parse('2026-03-05T00:00:00Z');
const bookingId = '4f1c2a7e-3b9d-4c55-9a1e-2d6f8b0c7e11';

describe('booking tokens (only the visitor who asked can book)', () => {
  const token = issueBookingToken(leadId, secret, now);

  it('yields the lead it was issued for while fresh', () => {
    expect(verifyBookingToken(token, secret, now + 1_000)).toBe(leadId);
    expect(verifyBookingToken(token, secret, now + BOOKING_TOKEN_MAX_AGE_MS)).toBe(leadId);
  });

  it('expires 7 days after the enquiry, however often it is issued again in between', () => {
    expect(BOOKING_TOKEN_MAX_AGE_MS).toBe(7 * 24 * 60 * 60 * 1000);
    // A visit on day 6 issues the token dated at the enquiry: the same token, no new lease.
    expect(issueBookingToken(leadId, secret, now)).toBe(token);
    const sixDays = now + 6 * 24 * 60 * 60 * 1000;
    expect(verifyBookingToken(token, secret, sixDays)).toBe(leadId);
    const eightDays = now + 8 * 24 * 60 * 60 * 1000;
    expect(
      verifyBookingToken(issueBookingToken(leadId, secret, now), secret, eightDays),
    ).toBeNull();
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

describe('manage tokens (reschedule and cancel without an account)', () => {
  const token = issueManageToken(bookingId, secret);

  it('yields the booking it was issued for, the same token every time', () => {
    expect(verifyManageToken(token, secret)).toBe(bookingId);
    expect(issueManageToken(bookingId, secret)).toBe(token);
  });

  it.each([
    ['missing', undefined, secret],
    ['another secret', token, `${secret}x`],
    ['another booking', token.replace(bookingId, '00000000-0000-4000-8000-000000000000'), secret],
    ['a booking token', issueBookingToken(bookingId, secret, now), secret],
    ['a truncated signature', token.slice(0, -2), secret],
  ])('refuses %s', (_case, given, key) => {
    expect(verifyManageToken(given, key)).toBeNull();
  });

  it('links to the manage page on SITE_URL with the token as its only parameter', () => {
    const url = new URL(managePageUrl(new URL('https://nirmaya.example/'), token));
    expect(url.origin + url.pathname).toBe('https://nirmaya.example/contact-us/demo/manage');
    expect([...url.searchParams]).toEqual([['token', token]]);
  });
});

describe('confirm tokens (the link that confirms a held booking)', () => {
  const token = issueConfirmToken(bookingId, secret, now);

  it('yields the booking for 24 hours after its e-mail, then nothing', () => {
    expect(token.startsWith(`c1.${bookingId}.`)).toBe(true);
    expect(verifyConfirmToken(token, secret, now + 31 * 60_000)).toBe(bookingId);
    expect(verifyConfirmToken(token, secret, now + CONFIRM_TOKEN_MAX_AGE_MS)).toBe(bookingId);
    expect(verifyConfirmToken(token, secret, now + CONFIRM_TOKEN_MAX_AGE_MS + 1)).toBeNull();
    expect(verifyConfirmToken(token, `${secret}x`, now)).toBeNull();
  });

  it('is no manage or booking token, and neither of those is a confirm token', () => {
    const manage = issueManageToken(bookingId, secret);
    const booking = issueBookingToken(bookingId, secret, now);
    expect(verifyConfirmToken(manage, secret, now)).toBeNull();
    expect(verifyConfirmToken(booking, secret, now)).toBeNull();
    expect(verifyConfirmToken(booking.replace(/^b1\./, 'c1.'), secret, now)).toBeNull();
    expect(verifyManageToken(token, secret)).toBeNull();
    expect(verifyBookingToken(token, secret, now)).toBeNull();
  });

  it('goes into the link of the confirmation page on SITE_URL', () => {
    expect(confirmPageUrl(new URL('https://nirmaya.example/'), token)).toBe(
      `https://nirmaya.example/contact-us/demo/confirm?token=${token}`,
    );
  });
});
