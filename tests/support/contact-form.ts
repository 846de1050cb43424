import { formTokenField } from '@/lib/contact-fields';
import { decode, parseForm } from '../../scripts/bench/enquiries.mjs';
import { backdatedFormToken } from './form-token';
import { httpRequest } from './http';

/** What a visitor types into the contact form (field names as the form's inputs). */
export type EnquiryValues = {
  firstName: string;
  lastName: string;
  email: string;
  organization: string;
  subject: string;
  message: string;
};

/** The contact form as loaded: its inputs (hidden ones with their values) and when it was loaded. */
export type LoadedForm = {
  fields: Array<{ name: string; value: string | null }>;
  loadedAt: number;
};

/** The answer to one posted enquiry. */
export type EnquiryResult = {
  /** The page said "thank you" and showed a reference. */
  accepted: boolean;
  /** The enquiry reference shown to the visitor, or null. */
  reference: string | null;
  /** The text of the form's status region (e.g. why it could not be saved), or ''. */
  message: string;
  status: number;
  html: string;
};

/** How the requests are sent: `localAddress` makes a loopback client distinct (e.g. 127.0.3.7). */
export type ClientOptions = { localAddress?: string };

/**
 * Loads the contact page (`page`, default `/contact-us`; e.g. `/contact-us?subject=demo` for a demo
 * request) as a browser would (fresh signed form token and server-action reference).
 * @throws when the page has no form or does not answer 200.
 */
export async function loadForm(
  baseUrl: string,
  headers: Record<string, string> = {},
  client: ClientOptions = {},
  page = '/contact-us',
): Promise<LoadedForm> {
  const response = await httpRequest(`${baseUrl}${page}`, { headers, ...client });
  if (response.status !== 200) throw new Error(`GET ${page} answered ${response.status}`);
  return { fields: parseForm(response.text), loadedAt: Date.now() };
}

/**
 * The multipart body a browser without JavaScript posts for `form`: each input with its value from
 * `values` (by name; hidden inputs keep their own unless `values` overrides them), '' for the rest.
 */
export function formBody(form: LoadedForm, values: Partial<Record<string, string>>): FormData {
  const body = new FormData();
  for (const { name, value } of form.fields) body.append(name, values[name] ?? value ?? '');
  return body;
}

/**
 * {@link formBody} with the form's token backdated past its minimum age (signed with the test's
 * `FORM_SECRET`, the nonce kept), so the form can be posted at once.
 * @throws when the server signed the token with another secret.
 */
export function backdatedBody(form: LoadedForm, values: Partial<Record<string, string>>): FormData {
  const token = form.fields.find(({ name }) => name === formTokenField)?.value;
  return formBody(form, {
    ...(token ? { [formTokenField]: backdatedFormToken(token) } : {}),
    ...values,
  });
}

/**
 * Posts a loaded form with `values` (as React's server action, without a browser), at once: its
 * token is backdated ({@link backdatedBody}; the server must run with the test's `FORM_SECRET`, as
 * startProductionServer's do). Never throws for a refusal: `accepted` is false and `status`/`html` say why.
 * @throws on network errors (e.g. the connection was cut), or when the server signs its tokens
 * with another secret.
 */
export async function submitForm(
  baseUrl: string,
  form: LoadedForm,
  values: EnquiryValues,
  headers: Record<string, string> = {},
  client: ClientOptions = {},
): Promise<EnquiryResult> {
  const body = backdatedBody(form, values);
  // A Response serialises the multipart body and gives its boundary, as a browser would send it.
  const encoded = new Response(body);
  const response = await httpRequest(`${baseUrl}/contact-us`, {
    method: 'POST',
    body: Buffer.from(await encoded.arrayBuffer()),
    headers: {
      origin: new URL(baseUrl).origin,
      accept: 'text/html',
      'content-type': encoded.headers.get('content-type') ?? '',
      ...headers,
    },
    ...client,
  });
  const html = response.text;
  const reference = /data-testid="enquiry-reference"[^>]*>([^<]+)</.exec(html)?.[1]?.trim() ?? null;
  const ok = response.status >= 200 && response.status < 300;
  const message = decode(
    /role="(?:status|alert)"[^>]*>([\s\S]{0,400}?)<\/(?:p|div)>/.exec(html)?.[1] ?? '',
  )
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return { accepted: ok && reference !== null, reference, message, status: response.status, html };
}

/**
 * Loads the contact form and posts `values` through it, as one visitor (`headers`, e.g. an
 * `X-Forwarded-For`, go with both requests; `client` chooses the source address), at once: the
 * token is backdated (see {@link submitForm}).
 * @throws on network errors or when the form cannot be loaded.
 */
export async function postEnquiry(
  baseUrl: string,
  values: EnquiryValues,
  headers: Record<string, string> = {},
  client: ClientOptions = {},
): Promise<EnquiryResult> {
  return submitForm(baseUrl, await loadForm(baseUrl, headers, client), values, headers, client);
}

/** The hidden inputs of every form in `html` as [name, value] pairs, decoded. */
export function hiddenInputs(html: string): Array<[string, string]> {
  return [...html.matchAll(/<input\b[^>]*\btype="hidden"[^>]*>/g)].flatMap(([tag]) => {
    const name = /\bname="([^"]*)"/.exec(tag)?.[1];
    const value = /\bvalue="([^"]*)"/.exec(tag)?.[1] ?? '';
    return name ? [[decode(name), decode(value)] as [string, string]] : [];
  });
}

/** Distinct, valid enquiry values for visitor `n`. */
export const enquiryValues = (n: number, tag = 'test'): EnquiryValues => ({
  firstName: 'Test',
  lastName: `Visitor ${n}`,
  email: `${tag}.${n}@hospital.example`,
  organization: 'Production Test Hospital',
  subject: `Enquiry ${tag} ${n}`,
  message: `Enquiry number ${n} posted by the production tests (${tag}).`,
});
