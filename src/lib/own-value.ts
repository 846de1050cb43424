/**
 * The value `record` holds under `key` as its OWN property, else undefined: the lookup of a
 * visitor-typed value (`?outcome=`, `?notice=`) into a table of texts. A plain `record[key]` would
 * answer `constructor`, `__proto__`, `toString` or `hasOwnProperty` with what every object
 * inherits (a function, or Object.prototype), which React refuses to render: a 500 for what
 * anyone can type. Arrays and missing keys (`?notice=a&notice=b`, no `?notice`) give undefined.
 */
export function ownValue<T>(
  record: Readonly<Record<string, T>>,
  key: string | string[] | null | undefined,
): T | undefined {
  return typeof key === 'string' && Object.hasOwn(record, key) ? record[key] : undefined;
}
