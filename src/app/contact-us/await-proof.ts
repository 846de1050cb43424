import type { AltchaWidgetElement } from 'altcha/types/generic';
import type { MouseEvent } from 'react';

/** Widget states after which a submit need not wait: solved, failed or expired. */
const settledStates = new Set(['verified', 'error', 'expired']);

/** How often a waiting submit looks at the widget again (ms). */
const POLL_MS = 100;

/** How long a submit waits for the widget to finish its proof before posting anyway (ms). */
export const PROOF_WAIT_MS = 15_000;

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

/**
 * The click handler of a visitor form's submit button (contact, privacy request). A fast visitor
 * (autofill) may press it before the widget's code has arrived (it is fetched on the first
 * interaction with the form) or while it still solves its challenge: the post then waits for the
 * proof (at most PROOF_WAIT_MS; `onWait(true)` then, for the button to show "Sending…", and
 * `onWait(false)` as the post goes) instead of going without it (a fast post without a proof is
 * quarantined). Held at the click, before any submit event, so the widget's own submit handling
 * never starts a second proof. A form whose fields the browser will refuse (a required field
 * empty) is left to the browser at once.
 * @param event the click on the form's submit button
 * @param onWait told when the click is held (true) and when the held post is sent (false)
 */
export function holdSubmitForProof(
  event: MouseEvent<HTMLButtonElement>,
  onWait: (waiting: boolean) => void,
): void {
  const form = event.currentTarget.form;
  if (!form || !fieldsValid(form) || !proofPending(form)) return;
  event.preventDefault();
  onWait(true);
  void waitForProof(form, PROOF_WAIT_MS).then(() => {
    onWait(false);
    // Past the wait the widget may still be solving, its checkbox then required: the browser
    // would refuse the post. The fields passed at the click, and the server checks all again.
    const skipChecks = proofPending(form);
    form.noValidate = skipChecks;
    try {
      form.requestSubmit();
    } finally {
      if (skipChecks) form.noValidate = false;
    }
  });
}
