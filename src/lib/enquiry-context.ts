import { z } from 'zod';
import { demoRequestField, sourcePageField } from './contact-fields';
import { readVisitSource, type VisitSource } from './visit-source';

/** Longest source path kept, in characters. */
export const sourcePageMaxLength = 200;

/**
 * A path on this site: starts with one `/` (not `//`, which a browser reads as another host), no
 * query or fragment, no backslash, space or control character, at most 200 characters.
 */
const sitePath = z
  .string()
  .max(sourcePageMaxLength)
  .regex(/^\/(?![/\\])[^?#\\\s\p{Cc}]*$/u);

/**
 * Where an enquiry came from, as stored with the lead: the demo link, the page the form was
 * opened from, and the visit's source (its first page, referring site and UTM tags).
 */
export type EnquiryContext = { demoRequested: boolean; sourcePage: string | null } & VisitSource;

/**
 * Reads the hidden context fields of a posted form. Invalid values are dropped (demo `false`,
 * source `null`; the visit's source cleaned by readVisitSource: tags cut to 64 characters), never
 * an error for the visitor: they only enrich the lead.
 */
export function readEnquiryContext(formData: FormData): EnquiryContext {
  const page = sitePath.safeParse(formData.get(sourcePageField));
  return {
    demoRequested: formData.get(demoRequestField) === '1',
    sourcePage: page.success ? page.data : null,
    ...readVisitSource((key) => formData.get(key)),
  };
}

/**
 * The path of a `Referer` whose host is one of `hosts` (this site's, e.g. `nirmaya.example` or
 * `localhost:3000`), without query string or fragment; `null` for a foreign, missing or malformed
 * Referer or an unusable path.
 */
export function refererPath(
  referer: string | null,
  hosts: readonly (string | null)[],
): string | null {
  if (!referer || !URL.canParse(referer)) return null;
  const url = new URL(referer);
  if (!/^https?:$/.test(url.protocol) || !hosts.includes(url.host)) return null;
  const page = sitePath.safeParse(url.pathname);
  return page.success ? page.data : null;
}
