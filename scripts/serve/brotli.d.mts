/** Types of brotli.mjs. */
import type http from 'node:http';
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;
export function acceptsBrotli(header: string | undefined): boolean;
export function loadPrecompressed(distDir: string): Map<string, Buffer>;
export function withBrotli(
  handler: Handler,
  precompressed: Map<string, Buffer>,
  options?: { deferHtml?: boolean; atLoad?: readonly string[] },
): Handler;
export function installBrotli(distDir: string): void;
