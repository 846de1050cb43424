'use client';

import { useEffect, useState, type RefObject } from 'react';

/** What counts as the visitor starting to use a form (in the capture phase, so nothing hides it). */
const interactions = ['focusin', 'pointerdown', 'keydown', 'submit'] as const;

/** How long after a pointer is released its click may still come (ms). */
const CLICK_GRACE_MS = 300;
/** The longest a press is waited for (ms): a release the page never saw does not block forever. */
const PRESS_WAIT_MS = 5_000;

/** The pointers pressed on the page now, and who waits for them to be released. */
type Presses = { down: number; waiting: Array<() => void> };
let presses: Presses | null = null;

/** Starts counting pressed pointers on the page (once per page). */
function trackPresses() {
  if (presses) return;
  const state: Presses = { down: 0, waiting: [] };
  presses = state;
  const release = () => {
    state.down = Math.max(0, state.down - 1);
    if (state.down > 0) return;
    // The press's click comes after its pointerup: let it reach what was under the pointer.
    let done = false;
    const finish = () => {
      if (done || state.down > 0) return;
      done = true;
      document.removeEventListener('click', onClick, true);
      setTimeout(() => state.waiting.splice(0).forEach((resolve) => resolve()));
    };
    const onClick = () => finish();
    document.addEventListener('click', onClick, { capture: true, once: true });
    setTimeout(finish, CLICK_GRACE_MS);
  };
  document.addEventListener('pointerdown', () => (state.down += 1), true);
  document.addEventListener('pointerup', release, true);
  document.addEventListener('pointercancel', release, true);
}

/**
 * Resolves at once when no pointer is pressed on the page, else once the press has ended and its
 * click has been dispatched (at most CLICK_GRACE_MS after the release, PRESS_WAIT_MS in all). A
 * component that changes its layout under the visitor's pointer (code fetched on pointerdown)
 * waits for it, so the click lands where it was aimed. Never rejects.
 */
export function pressFinished(): Promise<void> {
  const state = presses;
  if (!state || state.down === 0) return Promise.resolve();
  return new Promise((resolve) => {
    state.waiting.push(resolve);
    setTimeout(resolve, PRESS_WAIT_MS);
  });
}

/**
 * The target of the press, key or focus that started the framework (kept by the page loader,
 * src/lib/page-loader.ts `STARTED_BY`), or `null`: it came before hydration, so no listener here saw it.
 */
function startedBy(): Node | null {
  const target = (window as { __startedBy?: unknown }).__startedBy;
  return target instanceof Node ? target : null;
}

/**
 * Whether the visitor has started to use the form around `ref`'s element (the element itself when
 * it is a form, else its closest form, else the element): focus inside it, a pointer or key press
 * in it, or a submit, whichever comes first. True at once when the focus is already inside on
 * hydration (the visitor started typing before the scripts arrived), or when the interaction that
 * started the framework was in it. Never goes back to false.
 * Lets a form fetch code it only needs once used (the proof of work, the booking picker) on the
 * first interaction rather than with the page.
 */
export function useFirstInteraction(ref: RefObject<HTMLElement | null>): boolean {
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (touched || !element) return;
    trackPresses();
    const scope = element.closest('form') ?? element;
    const touch = () => setTouched(true);
    if (scope.contains(document.activeElement) || scope.contains(startedBy())) {
      // Focus moved in, or a press started the framework, before hydration: no event will tell.
      touch();
      return;
    }
    for (const type of interactions) scope.addEventListener(type, touch, { capture: true });
    return () => {
      for (const type of interactions) scope.removeEventListener(type, touch, { capture: true });
    };
  }, [ref, touched]);
  return touched;
}
