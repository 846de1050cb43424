import type { AltchaWidgetElement } from 'altcha/types/generic';

/** Widget states after which a submit need not wait: solved, failed or expired. */
const settledStates = new Set(['verified', 'error', 'expired']);

/** How often a waiting submit looks at the widget again (ms). */
const POLL_MS = 100;

/** The state of the form's ALTCHA widget, or null while it is not rendered or not loaded yet. */
function proofState(form: HTMLFormElement): string | null {
  const widget = form.querySelector<AltchaWidgetElement>('altcha-widget');
  return widget && typeof widget.getState === 'function' ? widget.getState() : null;
}

/**
 * Whether a submit should wait for the proof of work: the widget is still loading (it is imported
 * on demand) or still solving its challenge (issue 10: a fast visitor's post should carry it).
 */
export function proofPending(form: HTMLFormElement): boolean {
  const state = proofState(form);
  return state === null || !settledStates.has(state);
}

/**
 * Resolves once the form's widget has solved its challenge, failed or expired, or after
 * `timeoutMs` (ms), whichever comes first (the post then goes without a proof and the server falls
 * back to the clock test). Never rejects.
 */
export async function waitForProof(form: HTMLFormElement, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (proofPending(form) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
