import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The one signed-token helper of the site. A token kind is defined once with a purpose label, a
 * version tag and its fields; every token of that kind reads `<version>.<field>….<signature>`,
 * the signature being the HMAC-SHA-256 (keyed with the site secret, in base64url) of
 * `<purpose>:<everything before the signature>`. The purpose label keeps one kind of token from
 * passing for another even when their fields look alike (a booking token is no manage link). A
 * kind that lists the field {@link ISSUED_AT} carries the time it was issued (ms since the epoch,
 * base 36) and may have a maximum age; one without it never expires on its own. Signatures are
 * compared in constant time and only in their canonical base64url form.
 *
 * The form (`v1`, `form-token`), booking (`b1`, `demo-booking`) and manage (`m1`, `demo-manage`)
 * tokens are defined on top of this; the layout above is the one they always had, so tokens
 * already handed out (manage links in sent e-mails) keep verifying.
 */

/** The field name that stands for the time a token was issued (ms since the epoch, in base 36). */
export const ISSUED_AT = 'issuedAt';

/** What a kind of token is: see {@link defineSignedToken}. */
export type SignedTokenSpec<F extends string> = {
  /** Label signed with every token of this kind (e.g. `demo-manage`), unique per kind. */
  purpose: string;
  /** First segment of the token (e.g. `m1`), without a dot. */
  version: string;
  /** The fields after the version, in token order; {@link ISSUED_AT} places the issue time. */
  fields: readonly F[];
  /** Oldest a token may be when verified (ms); only with {@link ISSUED_AT} among the fields. */
  maxAgeMs?: number;
};

/** The values a token carries: every field but {@link ISSUED_AT}, as strings without dots. */
export type SignedTokenValues<F extends string> = Record<Exclude<F, typeof ISSUED_AT>, string>;

/** Why a token is refused: absent, malformed or forged, younger than allowed, or too old. */
export type SignedTokenRefusal = 'missing' | 'tampered' | 'too-fast' | 'expired';

/** Result of {@link SignedToken.verify}. `ageMs` is null for a kind without {@link ISSUED_AT}. */
export type SignedTokenCheck<F extends string> =
  | { ok: true; values: SignedTokenValues<F>; ageMs: number | null }
  | { ok: false; reason: SignedTokenRefusal };

/** Issues and verifies the tokens of one kind. */
export type SignedToken<F extends string> = {
  /**
   * A token carrying `values`, issued at `now` (ms since the epoch, default the current time),
   * signed with `secret`.
   * @throws RangeError when a value (or `now` in base 36) contains a dot, which would make the
   * token unreadable; a programming error, never caused by a visitor's input.
   */
  issue(values: SignedTokenValues<F>, secret: string, now?: number): string;
  /**
   * Checks `token` (anything a request carried) against `secret`. `now` (ms since the epoch,
   * default the current time) dates it; a token younger than `minAgeMs` (ms, default 0: not
   * issued in the future) is `too-fast`, one older than the kind's `maxAgeMs` is `expired`.
   * The signature is compared in constant time. Never throws.
   * @returns the values it carries and its age in ms, or why it is refused.
   */
  verify(
    token: unknown,
    secret: string,
    options?: { now?: number; minAgeMs?: number },
  ): SignedTokenCheck<F>;
};

/**
 * Defines a kind of signed token.
 * @param spec its purpose label, version tag, fields and optional maximum age
 * @returns its `issue` and `verify` functions
 * @throws Error when the version contains a dot, or a maximum age is given without
 * {@link ISSUED_AT}
 */
export function defineSignedToken<const F extends string>(
  spec: SignedTokenSpec<F>,
): SignedToken<F> {
  const { purpose, version, fields, maxAgeMs } = spec;
  const dated = (fields as readonly string[]).includes(ISSUED_AT);
  if (version.includes('.')) throw new Error(`Token version "${version}" contains a dot.`);
  if (maxAgeMs !== undefined && !dated)
    throw new Error(`Token "${purpose}" has a maximum age but no ${ISSUED_AT} field.`);

  const sign = (payload: string, secret: string) =>
    createHmac('sha256', secret).update(`${purpose}:${payload}`).digest('base64url');

  return {
    issue(values, secret, now = Date.now()) {
      const parts = fields.map((field) =>
        field === ISSUED_AT ? now.toString(36) : values[field as Exclude<F, typeof ISSUED_AT>],
      );
      if (parts.some((part) => part.includes('.')))
        throw new RangeError(`A "${purpose}" token value contains a dot.`);
      const payload = [version, ...parts].join('.');
      return `${payload}.${sign(payload, secret)}`;
    },

    verify(token, secret, { now = Date.now(), minAgeMs = 0 } = {}) {
      if (typeof token !== 'string' || token === '') return { ok: false, reason: 'missing' };
      const parts = token.split('.');
      if (parts.length !== fields.length + 2 || parts[0] !== version)
        return { ok: false, reason: 'tampered' };
      const signature = parts.pop()!;
      if (!sameText(signature, sign(parts.join('.'), secret)))
        return { ok: false, reason: 'tampered' };
      const values = {} as Record<string, string>;
      fields.forEach((field, index) => (values[field] = parts[index + 1]!));
      if (!dated) return { ok: true, values: values as SignedTokenValues<F>, ageMs: null };
      const issued = values[ISSUED_AT]!;
      delete values[ISSUED_AT];
      if (!/^[0-9a-z]+$/.test(issued)) return { ok: false, reason: 'tampered' };
      const ageMs = now - parseInt(issued, 36);
      if (!(ageMs >= minAgeMs)) return { ok: false, reason: 'too-fast' };
      if (maxAgeMs !== undefined && ageMs > maxAgeMs) return { ok: false, reason: 'expired' };
      return { ok: true, values: values as SignedTokenValues<F>, ageMs };
    },
  };
}

/** Whether two strings are equal, in time that depends only on their lengths. */
function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
