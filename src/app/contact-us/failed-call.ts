import { unstable_rethrow } from 'next/navigation';

/** Why a server action call failed before the action could answer. */
export type FailedCall = 'network' | 'refused';

/**
 * `action` (a server action as `useActionState` calls it: previous state, then the form) made safe
 * in the browser: when the call itself fails, because the request guard refused it with
 * a 4xx (an unknown action id on a page from before a deploy: 404; a body too large: 413) or the
 * network failed, it resolves to `failed(form, why)` instead of throwing the page into the error
 * boundary, so the form can say so and keep what was typed. Next.js's own signals (a redirect)
 * still propagate. On the server it is `action` itself, so the page still renders the fields a
 * browser without JavaScript posts (progressive enhancement needs the server reference; React lets
 * the client's action differ).
 * @param failed the state to show: `why` is `network` when no answer came (fetch's TypeError),
 *   else `refused`.
 */
export function catchFailedCall<State>(
  action: (previous: State, form: FormData) => Promise<State>,
  failed: (form: FormData, why: FailedCall) => State,
): (previous: State, form: FormData) => Promise<State> {
  if (typeof window === 'undefined') return action;
  return async (previous, form) => {
    try {
      return await action(previous, form);
    } catch (error) {
      unstable_rethrow(error);
      return failed(form, error instanceof TypeError ? 'network' : 'refused');
    }
  };
}
