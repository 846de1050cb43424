import { createHash } from 'node:crypto';

/** Script `type`s a browser executes as JavaScript (absent, empty, a JavaScript MIME type or `module`). */
const EXECUTABLE_TYPE = /^(|module|(text|application)\/(x-)?(java|ecma)script)$/i;

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const TYPE_ATTRIBUTE = /\btype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
const SRC_ATTRIBUTE = /\bsrc\s*=/i;

/**
 * The CSP source expressions (`'sha256-…'`) of every inline script in `html` that a browser would
 * execute, in document order without duplicates. Scripts with `src` are skipped (they are allowed by
 * `'self'`), and so are data blocks such as `<script type="application/ld+json">`, which browsers
 * never run and CSP does not check.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = '', body = ''] of html.matchAll(SCRIPT)) {
    if (SRC_ATTRIBUTE.test(attributes)) continue;
    const type = TYPE_ATTRIBUTE.exec(attributes);
    const typeValue = (type?.[1] ?? type?.[2] ?? type?.[3] ?? '').trim();
    if (!EXECUTABLE_TYPE.test(typeValue)) continue;
    hashes.add(scriptHash(body));
  }
  return [...hashes];
}

/**
 * `html` without its scripts (inline or not) and script preloads: a page that shows as it was
 * prerendered and never hydrates (the refusal pages, served at another URL than theirs).
 */
export function withoutScripts(html: string): string {
  return html.replace(SCRIPT, '').replace(/<link\b[^>]*\bas="script"[^>]*>/gi, '');
}

/** The CSP hash source of one script's text: `'sha256-<base64 of SHA-256 of its UTF-8 bytes>'`. */
export function scriptHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}
