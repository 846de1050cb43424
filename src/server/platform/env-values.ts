import 'server-only';
import { z } from 'zod';

/**
 * Zod pieces for environment variables, shared by src/server/platform/env.ts and the capabilities whose
 * variables it composes (src/server/features/demos/rules.ts). An empty variable (`FOO=` in a .env file)
 * counts as unset everywhere.
 */

/** An optional variable: empty or unset is `undefined`. */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** `fallback` when empty or unset, else `value` as given. */
const orDefault = (fallback: unknown) => (value: unknown) =>
  value === '' || value === undefined ? fallback : value;

/** A whole number above zero, `fallback` when empty or unset. */
export const positiveInt = (fallback: number) =>
  z.preprocess(orDefault(fallback), z.coerce.number().int().positive());

/** A whole number of zero or more, `fallback` when empty or unset. */
export const nonNegativeInt = (fallback: number) =>
  z.preprocess(orDefault(fallback), z.coerce.number().int().min(0));

/** A number above zero (fractions allowed), `fallback` when empty or unset. */
export const positiveNumber = (fallback: number) =>
  z.preprocess(orDefault(fallback), z.coerce.number().positive());

/**
 * A switch: `1` or `true` is on; `0` or `false` is off; empty or unset is `fallback` (off unless
 * given); anything else is refused.
 */
export const flag = (fallback = false) =>
  z.preprocess(
    (value) => (value === '' || value === undefined ? String(fallback) : value),
    z
      .enum(['0', '1', 'true', 'false'], 'must be 1 or 0')
      .transform((value) => ['1', 'true'].includes(value)),
  );

/** A text, `fallback` when empty or unset, checked by `schema`. */
export const textOr = <T extends z.ZodType>(fallback: string, schema: T) =>
  z.preprocess(orDefault(fallback), schema);

/** A list given as comma-separated items (spaces around each trimmed); empty or unset: `[]`. */
export const commaList = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((entry) => entry.trim())
            .filter(Boolean)
        : [],
    z.array(item),
  );

/** A list given as JSON (`DEMO_HOSTS`); invalid JSON is reported like any other mistake. */
export const jsonList = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) => {
      if (value === '' || value === undefined) return [];
      try {
        return JSON.parse(String(value));
      } catch {
        return value;
      }
    },
    z.array(item, 'must be a JSON list'),
  );
