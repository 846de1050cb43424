import { parseForm, type FormInput } from '../../../scripts/bench/enquiries.mjs';

/** The server refuses forms posted within 3 s of rendering (src/server/contact/token.ts). */
const TOKEN_MIN_AGE_MS = 3_100;

/** The contact form as a browser without JavaScript loaded it: its inputs and when. */
export type LoadedForm = { inputs: FormInput[]; loadedAt: number };

/** The answer to a posted form. */
export type PostedForm = { status: number; html: string; response: Response };

/**
 * Loads /contact-us and reads its form: React's hidden server-action fields, the signed token and
 * the names of the visible fields.
 * @param headers extra request headers (e.g. `X-Forwarded-For`)
 */
export async function loadContactForm(
  baseUrl: string,
  headers: Record<string, string> = {},
): Promise<LoadedForm> {
  const response = await fetch(`${baseUrl}/contact-us`, { headers });
  return { inputs: parseForm(await response.text()), loadedAt: Date.now() };
}

/**
 * The multipart body a browser without JavaScript posts for `form`: each input with its value from
 * `values` (by name; hidden inputs keep their own unless overridden), '' for the rest.
 */
export function formBody(form: LoadedForm, values: Record<string, string>): FormData {
  const body = new FormData();
  for (const { name, value } of form.inputs) body.append(name, values[name] ?? value ?? '');
  return body;
}

/**
 * Posts `form` to /contact-us as a browser without JavaScript does (same `Origin`, HTML wanted).
 * @param values field name -> value (see `formBody`)
 * @param headers extra request headers (e.g. `X-Forwarded-For`)
 */
export async function postContactForm(
  baseUrl: string,
  form: LoadedForm,
  values: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<PostedForm> {
  const response = await fetch(`${baseUrl}/contact-us`, {
    method: 'POST',
    body: formBody(form, values),
    headers: { origin: baseUrl, accept: 'text/html', ...headers },
  });
  return { status: response.status, html: await response.text(), response };
}

/**
 * Loads the contact form, waits until its token may be used (unless `values` brings its own
 * `formToken`) and posts it with `values`.
 * @param values field name -> value, e.g. `{ firstName: 'Asha', … }`
 * @param headers extra request headers for both requests (e.g. `X-Forwarded-For`)
 */
export async function postEnquiry(
  baseUrl: string,
  values: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<PostedForm> {
  const form = await loadContactForm(baseUrl, headers);
  const wait = form.loadedAt + TOKEN_MIN_AGE_MS - Date.now();
  if (values.formToken === undefined && wait > 0) await new Promise((r) => setTimeout(r, wait));
  return postContactForm(baseUrl, form, values, headers);
}
