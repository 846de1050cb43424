/** The fields a visitor types into the contact form (names as in the form). */
export type EnquiryValues = {
  firstName: string;
  lastName: string;
  email: string;
  organization: string;
  subject: string;
  message?: string;
};

/** What the server answered to a form post: the reference on "thank you", else the status text. */
export type PostedEnquiry = { status: number; reference?: string; message: string; html: string };

/** The signed form token must be at least this old when posted (ms; the server refuses faster posts). */
const TOKEN_MIN_AGE_MS = 3_100;

const decode = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * Posts the contact form of `baseUrl` the way a browser without JavaScript does: loads
 * `/contact-us`, keeps every hidden input (React's server action id, the signed token) and the
 * names of the visible ones, waits until the token is old enough, then posts `values`
 * (with `Origin` set to `baseUrl`, plus `headers`).
 * @returns the HTTP status, the enquiry reference when the page says "thank you", and the text of
 *   the status region otherwise.
 * @throws when the page has no form.
 */
export async function postEnquiry(
  baseUrl: string,
  values: EnquiryValues,
  headers: Record<string, string> = {},
): Promise<PostedEnquiry> {
  const loaded = Date.now();
  const page = await (await fetch(`${baseUrl}/contact-us`, { headers })).text();
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/.exec(page)?.[1];
  if (!form) throw new Error('no <form> on /contact-us');
  const body = new FormData();
  for (const [tag] of form.matchAll(/<(?:input|textarea)\b[^>]*>/g)) {
    const name = /\bname="([^"]*)"/.exec(tag)?.[1];
    if (!name) continue;
    const hidden = /\btype="hidden"/.test(tag);
    const typed = (values as Record<string, string | undefined>)[decode(name)];
    body.append(
      decode(name),
      hidden ? decode(/\bvalue="([^"]*)"/.exec(tag)?.[1] ?? '') : (typed ?? ''),
    );
  }
  const wait = loaded + TOKEN_MIN_AGE_MS - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const response = await fetch(`${baseUrl}/contact-us`, {
    method: 'POST',
    body,
    headers: { origin: baseUrl, accept: 'text/html', ...headers },
  });
  const html = await response.text();
  const reference = /data-testid="enquiry-reference"[^>]*>([^<]+)</.exec(html)?.[1]?.trim();
  const message = decode(
    /role="(?:status|alert)"[^>]*>([\s\S]{0,400}?)<\/(?:p|div)>/.exec(html)?.[1] ?? '',
  )
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return { status: response.status, reference, message, html };
}
