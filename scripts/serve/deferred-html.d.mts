/** Types of deferred-html.mjs. */
export function loadLoaderManifest(distDir: string): { beacon?: string; page?: string };
export function nonceOf(policy: unknown): string | null;
export function createDeferredHtml(options: {
  nonce: string;
  atLoad?: readonly string[];
  warn?: (reason: string) => void;
}): { push(text: string): string; end(): string };
