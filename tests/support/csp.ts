import { inlineScriptHashes } from '@/lib/security/inline-scripts';

/**
 * What is wrong with a page's Content-Security-Policy for its HTML: a missing policy, or an inline
 * script the policy does not allow (it carries neither the policy's nonce nor a listed SHA-256).
 * An empty list means every inline script of the page may run (every route keeps its CSP).
 */
export function cspProblems(policy: string | null, html: string): string[] {
  if (!policy) return ['no Content-Security-Policy header'];
  const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(policy)?.[1] ?? '';
  const nonce = /'nonce-([^']+)'/.exec(scriptSrc)?.[1];
  const unstamped = nonce
    ? html.replace(
        /<script\b[^>]*\bnonce="([^"]*)"[^>]*>[\s\S]*?<\/script\s*>/gi,
        (script, value) => (value === nonce ? '' : script),
      )
    : html;
  return inlineScriptHashes(unstamped)
    .filter((hash) => !scriptSrc.includes(hash))
    .map((hash) => `inline script ${hash} not allowed by script-src`);
}
