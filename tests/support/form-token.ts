import type { Page } from '@playwright/test';
import { formTokenField } from '@/lib/contact-fields';
import { formToken } from '@/server/platform/security/form-token';

/**
 * The form secret of the tests: unit and integration tests sign with it, and every production
 * server a test starts runs with it as `FORM_SECRET` (tests/support/next-server.ts), as does the
 * browser tests' server (playwright.config.ts). A test that knows the secret signs a form token
 * issued in the past instead of waiting out the token's minimum age.
 */
export const TEST_SECRET = 'test-secret-0123456789abcdef0123456789abcdef';

/** How old a backdated token is (ms): past the 3 s minimum age, far from the 6 h expiry. */
const BACKDATED_AGE_MS = 10_000;

/**
 * The form token `token` (one the server issued) signed again as if issued `ageMs` ago (default
 * 10 s), with the server's own token definition and the same nonce: the form keeps its identity
 * (its proof of work and its one stored enquiry are bound to the nonce), only its age changes.
 * @param secret the server's `FORM_SECRET` (default {@link TEST_SECRET})
 * @throws Error when `token` is not a form token signed with `secret` (the server runs with
 * another `FORM_SECRET`), so a wrong secret fails the test instead of quarantining its post
 */
export function backdatedFormToken(
  token: string,
  secret = TEST_SECRET,
  ageMs = BACKDATED_AGE_MS,
): string {
  const now = Date.now();
  // Verified a minute ahead: the token was issued just now, by a server on this machine.
  const check = formToken.verify(token, secret, { now: now + 60_000 });
  if (!check.ok)
    throw new Error(`The form token is not signed with the test's secret (${check.reason}).`);
  return formToken.issue({ nonce: check.values.nonce }, secret, now - ageMs);
}

/**
 * Replaces the contact form's token in `page` (JavaScript on or off) with its
 * {@link backdatedFormToken}, so that a Submit right after filling the form is taken as a human's.
 * Call it just before Submit: with JavaScript, the form puts its own token back when it renders
 * again (harmless then: the proof of work vouches for the post instead of the clock).
 * @param secret the server's `FORM_SECRET` (default {@link TEST_SECRET})
 */
export async function backdateFormToken(page: Page, secret = TEST_SECRET): Promise<void> {
  const input = page.locator(`form input[name="${formTokenField}"]`);
  const token = backdatedFormToken(await input.inputValue(), secret);
  await input.evaluate((element, value) => ((element as HTMLInputElement).value = value), token);
}
