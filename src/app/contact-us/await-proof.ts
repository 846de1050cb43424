import type { AltchaWidgetElement } from 'altcha/types/generic';

/**
 * The form's ALTCHA widget while it is still solving its challenge, else null (no widget: no
 * JavaScript yet, or it failed to load; or already verified, failed or expired).
 */
export function solvingWidget(form: HTMLFormElement | null): AltchaWidgetElement | null {
  const widget = form?.querySelector<AltchaWidgetElement>('altcha-widget');
  return widget && typeof widget.getState === 'function' && widget.getState() === 'verifying'
    ? widget
    : null;
}

/**
 * Resolves once `widget` leaves the `verifying` state (solved or failed) or after `timeoutMs`
 * (ms), whichever comes first. Never rejects.
 */
export function waitForProof(widget: AltchaWidgetElement, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      widget.removeEventListener('statechange', onChange);
      resolve();
    };
    const onChange = () => {
      if (widget.getState() !== 'verifying') done();
    };
    const timer = setTimeout(done, timeoutMs);
    widget.addEventListener('statechange', onChange);
  });
}
