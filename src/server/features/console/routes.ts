/**
 * The console's door for routes and server actions: what reads the request (the session and its
 * cookie, the action wrapper, redirects) and so runs only inside Next.js, never in the `leads` CLI,
 * which imports `./index` alone.
 */
export { consoleAction, text, texts, withNotice } from './action';
export type { FormFields } from './action';
export { consoleAuth, currentOperator, isConsolePost, requirePageOperator } from './session';
