/** A form input as a browser would submit it: hidden inputs carry their value, others null. */
export type FormInput = { name: string; value: string | null };

/** `value` with the five character references React writes in HTML decoded. */
export function decode(value: string): string;

/** The inputs of the contact form in the HTML of /contact-us. @throws when there is no form */
export function parseForm(html: string): FormInput[];

export function measureEnquiries(
  baseUrl: string,
  options: { count: number; concurrency?: number },
): Promise<Record<string, unknown>>;
