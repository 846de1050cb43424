'use server';

import { headers } from 'next/headers';
import type { ContactFormState } from '@/lib/contact-schema';
import { submitContactForm } from '@/server/contact/service';

/**
 * The contact form's server action (used through `useActionState`, so it also works as a plain
 * POST without JavaScript). Validation, spam checks, storage and the e-mail job live in
 * src/server/contact; this only hands over the request headers. Never throws.
 */
export async function sendEnquiry(
  _previous: ContactFormState,
  formData: FormData,
): Promise<ContactFormState> {
  return submitContactForm(formData, await headers());
}
