/**
 * A SQL `LIKE`/`ILIKE` pattern matching `text` anywhere, its wildcards (`%`, `_`) and the escape
 * character (`\`) taken literally.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
