import type { Thing, WithContext } from 'schema-dts';

/** A schema.org JSON-LD document with its `@context`. */
export type JsonLdDocument = WithContext<Thing>;

/**
 * Serialises JSON-LD for an inline `<script type="application/ld+json">`. `<`, `>` and `&` become
 * `\u003c`, `\u003e`, `\u0026`, so no value can close the script (`</script>`) or open a comment;
 * U+2028 and U+2029 are escaped too. The result is still JSON that parses to the same data
 * (Next.js JSON-LD guide; OWASP XSS prevention, "HTML entity encoding in script data").
 */
export function serializeJsonLd(data: JsonLdDocument): string {
  return JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
