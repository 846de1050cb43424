/**
 * The demos' door for `src/proxy.ts`: only what runs before any route renders (the manage link's
 * hand-over into a cookie), so the proxy loads no database, mail or booking code.
 */
export { isEmailLinkPage, MANAGE_REFERRER_POLICY, manageLinkResponse } from './manage-link';
