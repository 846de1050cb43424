import type { AltchaWidgetElement } from 'altcha/types/generic';

/** Widget states after which a submit need not wait: solved, failed or expired. */
const settledStates = new Set(['verified', 'error', 'expired']);

/** How often a waiting submit looks at the widget again (ms). */
const POLL_MS = 100;

/** The form's ALTCHA widget once loaded, else null (not rendered or its script not loaded yet). */
function loadedWidget(form: HTMLFormElement): AltchaWidgetElement | null {
  const widget = form.querySelector<AltchaWidgetElement>('altcha-widget');
  return widget && typeof widget.getState === 'function' ? widget : null;
}

function proofState(form: HTMLFormElement): string | null {
  return loadedWidget(form)?.getState() ?? null;
}

/**
 * Whether a submit should wait for the proof of work: the widget is still loading (it is imported
 * on demand) or still solving its challenge (a fast visitor's post should carry it).
 */
export function proofPending(form: HTMLFormElement): boolean {
  const state = proofState(form);
  return state === null || !settledStates.has(state);
}

/**
 * Resolves once the form's widget has solved its challenge, failed or expired, or after
 * `timeoutMs` (ms), whichever comes first (the post then goes without a proof and the server falls
 * back to the clock test). Starts the widget when it is idle (React resets the form, and with it
 * the widget, after each submission). Never rejects.
 */
export async function waitForProof(form: HTMLFormElement, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let started = false;
  while (proofPending(form) && Date.now() < deadline) {
    const widget = loadedWidget(form);
    if (!started && widget?.getState() === 'unverified') {
      started = true;
      void widget.verify().catch(() => {});
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Whether the browser will accept `form`'s own fields (required ones filled, lengths and types
 * right), leaving out the widget's checkbox: it is required while the proof is being solved and
 * ticked by the proof itself. A submit the browser will refuse is left to its message at once
 * instead of being held for the proof.
 */
export function fieldsValid(form: HTMLFormElement): boolean {
  return [...form.elements].every(
    (element) =>
      element.closest('altcha-widget') !== null ||
      !(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) ||
      element.checkValidity(),
  );
}
