import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { issueFormToken, verifyFormToken } from './form-token';
import {
  issueBookingToken,
  issueManageToken,
  verifyBookingToken,
  verifyManageToken,
} from '../../features/demos/tokens';
import { defineSignedToken, ISSUED_AT } from './signed-token';

const secret = 'test-secret-0123456789abcdef0123456789abcdef';
const t0 = Date.parse('2026-03-05T09:30:00Z');

const dated = defineSignedToken({
  purpose: 'test-dated',
  version: 't1',
  fields: ['subject', ISSUED_AT],
  maxAgeMs: 60_000,
});
const lasting = defineSignedToken({ purpose: 'test-lasting', version: 't1', fields: ['subject'] });

describe('defineSignedToken', () => {
  const token = dated.issue({ subject: 'abc' }, secret, t0);

  it('lays a token out as version, fields, signature and reads its values back', () => {
    expect(token).toMatch(new RegExp(`^t1\\.abc\\.${t0.toString(36)}\\.[\\w-]{43}$`));
    expect(dated.verify(token, secret, { now: t0 + 1_000 })).toEqual({
      ok: true,
      values: { subject: 'abc' },
      ageMs: 1_000,
    });
    expect(lasting.verify(lasting.issue({ subject: 'abc' }, secret), secret)).toEqual({
      ok: true,
      values: { subject: 'abc' },
      ageMs: null,
    });
  });

  it('holds a dated token from its issue time to its maximum age', () => {
    expect(dated.verify(token, secret, { now: t0 })).toMatchObject({ ok: true, ageMs: 0 });
    expect(dated.verify(token, secret, { now: t0 + 60_000 })).toMatchObject({ ok: true });
    expect(dated.verify(token, secret, { now: t0 + 60_001 })).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(dated.verify(token, secret, { now: t0 - 1 })).toEqual({
      ok: false,
      reason: 'too-fast',
    });
    expect(dated.verify(token, secret, { now: t0 + 999, minAgeMs: 1_000 })).toEqual({
      ok: false,
      reason: 'too-fast',
    });
  });

  it.each([
    ['missing', undefined],
    ['missing', ''],
    ['missing', 42],
    ['tampered', 't1.abc'],
    ['tampered', `${token}.extra`],
    ['tampered', token.replace(/^t1/, 't2')],
    ['tampered', token.replace('.abc.', '.abd.')],
    ['tampered', token.slice(0, -2)],
    ['tampered', `${token}=`],
    ['tampered', token.replace(/\.[^.]+$/, '.')],
  ])('refuses as %s: %j', (reason, given) => {
    expect(dated.verify(given, secret, { now: t0 + 1_000 })).toEqual({ ok: false, reason });
  });

  it('refuses a token of another purpose or signed with another secret', () => {
    const other = defineSignedToken({ purpose: 'test-other', version: 't1', fields: ['subject'] });
    const forLasting = lasting.issue({ subject: 'abc' }, secret);
    expect(other.verify(forLasting, secret)).toEqual({ ok: false, reason: 'tampered' });
    expect(lasting.verify(forLasting, `${secret}x`)).toEqual({ ok: false, reason: 'tampered' });
  });

  it('never throws on anything a request could carry', () => {
    fc.assert(
      fc.property(fc.anything(), fc.string(), (given, text) => {
        expect(dated.verify(given, secret).ok).toBe(false);
        expect(dated.verify(`t1.${text}`, secret).ok).toBe(false);
        expect(lasting.verify(text, secret).ok).toBe(false);
      }),
    );
  });

  it('refuses a value with a dot when issuing, and a maximum age without an issue time', () => {
    expect(() => lasting.issue({ subject: 'a.b' }, secret)).toThrow(RangeError);
    expect(() =>
      defineSignedToken({ purpose: 'test', version: 't1', fields: ['x'], maxAgeMs: 1 }),
    ).toThrow(/maximum age/);
    expect(() => defineSignedToken({ purpose: 'test', version: 't.1', fields: [] })).toThrow(/dot/);
  });
});

/**
 * Tokens made by the code before the shared helper (three copies of the HMAC code), with this
 * secret at 2026-03-05T09:30:00Z. Manage links sit in e-mails already sent, and form and booking
 * tokens in pages already open: each must still verify, and the same input must still give the
 * same bytes.
 */
describe('tokens issued before the shared helper', () => {
  const oldSecret = 'pinned-secret-0123456789abcdef0123456789';
  const leadId = '4f1c2a7e-3b9d-4c55-9a1e-2d6f8b0c7e11';
  const bookingId = '9b2d6e10-5a7c-4f3e-8d21-6c0b9e4a7f35';
  const form = 'v1.mmd9lgw0.4be8WYslnGi201KOuUNPJA.VdoIEBExFWvZ2Nd4vx6pedGeEA9fx9um3wW2OwCRulc';
  const booking =
    'b1.4f1c2a7e-3b9d-4c55-9a1e-2d6f8b0c7e11.mmd9lgw0._A9RFwxKW2wYO-qA_pzhiy_eGN_328T1Gj1mfGG7glo';
  const manage =
    'm1.9b2d6e10-5a7c-4f3e-8d21-6c0b9e4a7f35.QVbexqaP3AIJDtbNFx66TVsS1a0fy9md3Y4tOLXLPSg';

  it('verifies a form token (v1, form-token)', () => {
    expect(verifyFormToken(form, oldSecret, t0 + 10_000)).toEqual({
      ok: true,
      nonce: '4be8WYslnGi201KOuUNPJA',
      ageMs: 10_000,
    });
    expect(issueFormToken(oldSecret, t0)).toMatch(/^v1\.mmd9lgw0\./);
  });

  it('verifies and reissues a booking token (b1, demo-booking)', () => {
    expect(verifyBookingToken(booking, oldSecret, t0 + 10_000)).toBe(leadId);
    expect(issueBookingToken(leadId, oldSecret, t0)).toBe(booking);
  });

  it('verifies and reissues a manage link token (m1, demo-manage)', () => {
    expect(verifyManageToken(manage, oldSecret)).toBe(bookingId);
    expect(issueManageToken(bookingId, oldSecret)).toBe(manage);
  });

  it('keeps each label apart: no kind passes for another', () => {
    expect(verifyManageToken(booking, oldSecret)).toBeNull();
    expect(verifyBookingToken(manage, oldSecret, t0)).toBeNull();
    expect(verifyFormToken(booking, oldSecret, t0 + 10_000)).toEqual({
      ok: false,
      reason: 'tampered',
    });
  });
});
