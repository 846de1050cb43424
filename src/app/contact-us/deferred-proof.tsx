'use client';

import dynamic from 'next/dynamic';
import { useRef } from 'react';
import { useFirstInteraction } from './first-interaction';

/**
 * The proof-of-work widget (spam defence): its code (the widget and its worker, a chunk of their
 * own) is fetched in the browser only, once the visitor starts to use the form.
 */
const AltchaProof = dynamic(() => import('./altcha-proof').then((module) => module.AltchaProof), {
  ssr: false,
});

/**
 * The proof of work of a visitor form (the contact and privacy-request forms), rendered inside the
 * form above its submit button. Its place is in the server's HTML, so neither hydration nor the
 * widget's arrival moves the button under the visitor's pointer (without JavaScript the place
 * stays empty); the widget's code is fetched on the first interaction with the form
 * (`useFirstInteraction`), and the widget starts over for a new `formToken` (the form's signed
 * token, for which the challenge is issued).
 */
export function DeferredProof({ formToken }: { formToken: string }) {
  const placeRef = useRef<HTMLDivElement>(null);
  const touched = useFirstInteraction(placeRef);
  return (
    <div ref={placeRef} className="min-h-8">
      {touched && <AltchaProof key={formToken} formToken={formToken} />}
    </div>
  );
}
