'use client';

import 'altcha/altcha.css';
// Defines <altcha-widget>. Imported statically so that the forms' one dynamic import of this
// module fetches the widget's code in one go (no second round trip from an effect); the forms
// never render this module on the server.
import 'altcha/external';
import type { AltchaWidgetElement } from 'altcha/types/generic';
import type {} from 'altcha/types/react';
import { useEffect, useRef } from 'react';
import { proofAlgorithm, proofField } from '@/lib/proof-of-work';

// The self-hosted PBKDF2 worker (a same-origin file: no blob: worker, no eval), registered as
// this module loads, before any widget of it can start a proof.
globalThis.$altcha.algorithms.set(
  proofAlgorithm,
  () => new Worker(new URL('../../../node_modules/altcha/dist/workers/pbkdf2.js', import.meta.url)),
);

type AltchaProofProps = {
  /** The form's signed token: the challenge is issued for this form only. */
  formToken: string;
};

/**
 * The ALTCHA proof-of-work widget (spam defence), rendered inside the contact and privacy-request
 * forms with JavaScript only (DeferredProof imports it dynamically on the first interaction with
 * the form, so no other page loads it). It fetches a
 * challenge for this form from /api/altcha, solves it in a Web Worker while the visitor types, and posts the
 * solution as the `altcha` field; the server then skips the clock test. Accessible: a labelled
 * checkbox ("I'm not a robot") the widget ticks itself, reachable by keyboard to retry on error.
 * Styles come from the package's stylesheet (the `external` build injects no <style>).
 */
export function AltchaProof({ formToken }: AltchaProofProps) {
  const ref = useRef<AltchaWidgetElement>(null);
  useEffect(() => {
    let cancelled = false;
    customElements
      .whenDefined('altcha-widget')
      .then(() => {
        // Solve while the visitor types; 'onsubmit' keeps the checkbox optional, so a failed
        // proof never blocks the form (the server then falls back to the clock test).
        if (!cancelled && ref.current?.getState() === 'unverified') void ref.current.verify();
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [formToken]);

  // The widget's theme variables: aligned with the form's fields, brand colours, a visible spinner;
  // its tick lets clicks through to the checkbox under it.
  return (
    <div className="min-h-8 [--altcha-color-primary:var(--color-brand-700)] [--altcha-color-success:var(--color-brand-700)] [--altcha-padding:0.25rem_0] [--altcha-spinner-color:var(--color-brand-700)] [&_.altcha-checkbox_svg]:pointer-events-none">
      <altcha-widget
        ref={ref}
        challenge={`/api/altcha?form=${encodeURIComponent(formToken)}`}
        auto="onsubmit"
        name={proofField}
        configuration={JSON.stringify({ hideFooter: true, hideLogo: true })}
      />
    </div>
  );
}
