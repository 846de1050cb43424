/** Types of nginx-edge.mjs. */
export type Edge = {
  /** `https://127.0.0.1:<port>` */
  url: string;
  /** `http://127.0.0.1:<port>` (redirects to `url`) */
  httpUrl: string;
  /** What nginx wrote to its error log so far. */
  errors(): string;
  /** What nginx wrote to its access log so far (deploy/nginx.conf's `edge` format). */
  accessLog(): string;
  stop(): Promise<void>;
};
export function fillTemplate(template: string, values: Record<string, string>): string;
export function startEdge(upstreams: string[], failTimeoutS?: number): Promise<Edge>;
export function startStaticNginx(root: string): Promise<{ url: string; stop(): Promise<void> }>;
export function withoutScripts(html: string): string;
export function pageHeaderDirectives(headers: Headers): string;
export function startNoJsCopy(
  siteUrl: string,
  routes: string[],
  staticDir: string,
): Promise<{ url: string; stop(): Promise<void> }>;
