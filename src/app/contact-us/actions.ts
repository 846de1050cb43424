'use server';

import { headers } from 'next/headers';
import type { ContactFormState } from '@/lib/contact-schema';
import { submitContactForm } from '@/server/features/contact';
import { bookingOfferFor } from '@/server/features/demos';
import { errorFacts, log } from '@/server/platform/log';

/**
 * The contact form's server action (used through `useActionState`, so it also works as a plain
 * POST without JavaScript). Validation, spam checks, storage and the e-mail job live in
 * src/server/contact; an accepted enquiry then gets the demo booking step from src/server/demos
 * when booking is on (a failure there only leaves the step out). Never throws.
 */
export async function sendEnquiry(
  _previous: ContactFormState,
  formData: FormData,
): Promise<ContactFormState> {
  const state = await submitContactForm(formData, await headers());
  if (state.status !== 'accepted') return state;
  try {
    const booking = await bookingOfferFor(state.reference);
    return booking ? { ...state, booking } : state;
  } catch (error) {
    log.error({ event: 'demo.offer_failed', error: errorFacts(error) });
    return state;
  }
}
