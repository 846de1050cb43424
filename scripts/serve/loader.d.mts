/** Types of loader.mjs. */
export const DEFERRED_FOLDER: string;
export const LOADER_MANIFEST_FILE: string;
export const LOADER: string;
export const FIRST_PAINT_WAIT_MS: number;
export const INTERACTIONS: readonly string[];
export const STARTED_BY: string;
export const HYDRATE_AT_LOAD_ATTRIBUTE: string;
export function atLoadScripts(manifest: { beacon?: string; page?: string }): string[];
export type ScriptKind =
  | { kind: 'data' }
  | { kind: 'inline' }
  | { kind: 'loader' }
  | { kind: 'module' }
  | { kind: 'foreign'; url: string }
  | { kind: 'file'; url: string; noModule: boolean };
export type ScanHandlers = {
  /** A whole `<script>` element: its opening tag's attributes, its text, and all of it. */
  script(attributes: string, body: string, whole: string): string;
  /** A `<link>` tag, whole. */
  link(tag: string): string;
  /** Text to insert before a `</body>`. */
  bodyEnd(): string;
};
export type HtmlScanner = {
  /** Feeds the next piece; returns what can be sent now. */
  push(text: string): string;
  /** The end of the document: returns the rest. */
  end(): string;
  /** From now on, everything passes unchanged. */
  stop(): void;
};
export function attribute(attributes: string, name: string): string | undefined;
export function scriptKind(attributes: string): ScriptKind;
export function isScriptPreload(tag: string): boolean;
export function loaderTag(options: {
  scripts: readonly string[];
  noModule?: readonly string[];
  atLoad?: readonly string[];
  nonce?: string;
  now?: boolean;
}): string;
export function createHtmlScanner(handlers: ScanHandlers): HtmlScanner;
