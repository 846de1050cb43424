// Brotli for the seam (Next.js's own compression is gzip only), around Next.js's request handler.
// For a GET whose client accepts `br`, Next.js is asked for the uncompressed body and
// - a body sent whole (a prerendered page, a file under /_next/static/) is answered with its copy
//   precompressed at build (scripts/build/precompress.ts, `<distDir>/precompressed/`) when there
//   is one, else compressed here (quality 5); a build file's compressed copy is kept in a bounded
//   cache under its one canonical URL (./static-cache.ts);
// - a streamed body (a page rendered per request) is compressed as it streams (quality 5),
//   flushed after each chunk so that streaming still reaches the visitor chunk by chunk.
// A page rendered per request (HTML under a CSP nonce; not the console) is also rewritten as it
// streams so that its scripts wait for `load` (./page-rewrite.ts): for those requests (any method
// but HEAD, any encoding) Next.js is asked for the uncompressed body, which is rewritten and then
// compressed here with brotli or gzip, whichever the client accepts.
// Everything else (other methods, clients without `br`) goes untouched to Next.js, which gzips.
// Headers set by the site (CSP, caching, ETag) are kept; `Vary: Accept-Encoding` is added.
// The response's `writeHead`/`write`/`end` are wrapped for this one response, as the
// `compression` middleware does: a library could not do the rest (the precompressed copies are
// found by the hash of the body Next.js sends, and the page rewrite runs before compression).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import path from 'node:path';
import {
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gzipSync,
  type BrotliCompress,
  type Gzip,
} from 'node:zlib';
import { createPageRewrite, nonceOf, type PageRewrite } from './page-rewrite';
import type { StaticCache } from './static-cache';

/** A Node.js request listener (Next.js's handler, or the next layer of the seam). */
export type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;

/** What {@link withCompression} needs from the build. */
export type CompressionOptions = {
  /** SHA-256 (hex) of an uncompressed body -> its brotli copy made at build ({@link loadPrecompressed}). */
  precompressed: ReadonlyMap<string, Buffer>;
  /** Where compressed build files are kept. */
  cache: StaticCache;
  /** Whether pages rendered per request are rewritten (./page-rewrite.ts). */
  rewritePages: boolean;
  /** The scripts the loader of a rewritten page runs at once after `load`. */
  atLoad: readonly string[];
};

/** Content types worth compressing. */
const COMPRESSIBLE =
  /^(text\/|application\/(javascript|json|manifest\+json|xml|rss\+xml)|image\/svg\+xml)/i;
/** Bodies smaller than this are sent as they are. */
const MIN_BYTES = 1024;
const FAST = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };

/** Whether an `Accept-Encoding` header accepts `coding` (listed without `q=0`). */
function accepts(header: string | undefined, coding: 'br' | 'gzip'): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name = '', ...params] = part.trim().split(';');
    if (name.trim().toLowerCase() !== coding) return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** Whether an `Accept-Encoding` header accepts brotli (`br` listed without `q=0`). */
export function acceptsBrotli(header: string | undefined): boolean {
  return accepts(header, 'br');
}

/** Paths whose pages are never rewritten: the console, the API, Next.js's own files. */
const NOT_REWRITTEN = /^\/(admin|api|_next)(\/|\?|$)/;

/**
 * The bodies precompressed at build: SHA-256 (hex) of the uncompressed body -> brotli bytes.
 * Empty (with a warning) when the build has none.
 * @param distDir the build folder the server runs
 */
export function loadPrecompressed(distDir: string): Map<string, Buffer> {
  const folder = path.join(distDir, 'precompressed');
  const bodies = new Map<string, Buffer>();
  let keys: string[];
  try {
    keys = JSON.parse(readFileSync(path.join(folder, 'index.json'), 'utf8')) as string[];
  } catch {
    console.warn(`No precompressed pages in ${folder}: brotli is computed per response.`);
    return bodies;
  }
  for (const key of keys) bodies.set(key, readFileSync(path.join(folder, `${key}.br`)));
  return bodies;
}

/** Adds `Accept-Encoding` to the response's `Vary`. */
function varyOnEncoding(res: ServerResponse): void {
  const vary = String(res.getHeader('vary') ?? '');
  if (!/\baccept-encoding\b/i.test(vary))
    res.setHeader('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Wraps `handler` with brotli and the rewrite of pages rendered per request, as described above.
 * @returns a request listener
 */
export function withCompression(handler: Listener, options: CompressionOptions): Listener {
  const { precompressed, cache } = options;
  return function compressionHandler(req, res) {
    const url = req.url ?? '';
    const accept = req.headers['accept-encoding'];
    const rewritable = options.rewritePages && req.method !== 'HEAD' && !NOT_REWRITTEN.test(url);
    const encoding = accepts(accept, 'br') ? 'br' : accepts(accept, 'gzip') ? 'gzip' : null;
    if (!rewritable && (req.method !== 'GET' || encoding !== 'br')) return handler(req, res);
    req.headers['accept-encoding'] = 'identity';
    const immutable = url.startsWith('/_next/static/') && !url.includes('?');
    // The response's own methods, called with loose arguments as Next.js calls them.
    const writeHead = res.writeHead as (this: ServerResponse, status: number) => ServerResponse;
    const write = res.write as (this: ServerResponse, ...args: unknown[]) => boolean;
    const end = res.end as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
    const flushHeaders = res.flushHeaders;
    let mode: null | 'pass' | 'stream' | 'whole' = null;
    let stream: BrotliCompress | Gzip | null = null;
    let headArgs: [number] | null = null;
    /** The rewrite of a page rendered per request, with its decoder; null for anything else. */
    let html: { page: PageRewrite; decoder: TextDecoder } | null = null;

    let sending = false;
    res.writeHead = function (status: number, ...rest: unknown[]) {
      if (sending) return writeHead.call(res, status);
      // Applied to the response now, sent with the first body bytes (when the encoding is known).
      res.statusCode = status;
      const headers = rest.find((arg) => typeof arg === 'object' && arg !== null) as
        OutgoingHttpHeaders | string[] | undefined;
      if (typeof rest[0] === 'string') res.statusMessage = rest[0];
      if (Array.isArray(headers))
        for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
      else if (headers)
        for (const [k, v] of Object.entries(headers)) if (v !== undefined) res.setHeader(k, v);
      headArgs = [status];
      return res;
    } as ServerResponse['writeHead'];
    // Through `res.writeHead` as wrapped by then (Next.js's gzip middleware listens to it, and
    // waits for it before it passes on `drain` events), down to Node.js's own.
    const sendHead = () => {
      if (res.headersSent) return;
      sending = true;
      try {
        res.writeHead(headArgs?.[0] ?? res.statusCode);
      } finally {
        sending = false;
      }
    };
    const compressible = () =>
      encoding !== null &&
      !res.getHeader('content-encoding') &&
      res.statusCode >= 200 &&
      res.statusCode !== 204 &&
      res.statusCode !== 304 &&
      COMPRESSIBLE.test(String(res.getHeader('content-type') ?? ''));
    /** Decides, from the response's head, whether the body is rewritten and how it is sent. */
    const decide = (streamed: boolean, headNow = false) => {
      const nonce = nonceOf(res.getHeader('content-security-policy'));
      if (
        rewritable &&
        nonce &&
        !res.getHeader('content-encoding') &&
        /^text\/html\b/i.test(String(res.getHeader('content-type') ?? ''))
      )
        html = {
          page: createPageRewrite({ nonce, atLoad: options.atLoad }),
          decoder: new TextDecoder(),
        };
      if (!compressible()) mode = html && streamed ? 'stream' : 'pass';
      else mode = immutable && !headNow ? 'whole' : streamed ? 'stream' : null;
      if (mode === 'stream') startStream();
    };
    /** The rewritten bytes of a piece of the page (`null`: the end). */
    const rewrite = (bytes: Buffer | null): Buffer => {
      if (!html) return bytes ?? Buffer.alloc(0);
      const text =
        bytes === null
          ? html.page.push(html.decoder.decode()) + html.page.end()
          : html.page.push(html.decoder.decode(bytes, { stream: true }));
      return Buffer.from(text, 'utf8');
    };
    const startStream = () => {
      res.removeHeader('content-length');
      if (!compressible()) return sendHead();
      varyOnEncoding(res);
      res.setHeader('Content-Encoding', String(encoding));
      sendHead();
      stream = encoding === 'br' ? createBrotliCompress(FAST) : createGzip();
      stream.on('data', (chunk: Buffer) => write.call(res, chunk));
      stream.on('end', () => end.call(res));
    };
    /** Sends rewritten bytes down the stream: compressed, or as they are. */
    const send = (bytes: Buffer) => {
      if (stream) {
        stream.write(bytes);
        stream.flush();
      } else if (bytes.length) write.call(res, bytes);
    };
    /** The whole body: its precompressed copy, or compressed now; null when not worth it. */
    const compressWhole = (body: Buffer): Buffer | null => {
      if (body.length < MIN_BYTES) return null;
      if (encoding === 'gzip') return gzipSync(body);
      const cached = immutable ? cache.get(url) : undefined;
      if (cached) return cached;
      const compressed =
        precompressed.get(createHash('sha256').update(body).digest('hex')) ??
        brotliCompressSync(body, FAST);
      // Kept only under a build file's canonical URL (./static-cache.ts), and only for a success.
      if (immutable && res.statusCode === 200) cache.set(url, compressed);
      return compressed;
    };
    const chunks: Buffer[] = [];

    res.flushHeaders = function () {
      if (mode === null) decide(true, true);
      sendHead();
      return flushHeaders.call(res);
    };
    res.write = function (chunk: unknown, encodingName?: unknown, callback?: unknown) {
      if (mode === null) decide(true);
      const cb = (typeof encodingName === 'function' ? encodingName : callback) as
        (() => void) | undefined;
      const bytes =
        typeof chunk === 'string'
          ? Buffer.from(
              chunk,
              typeof encodingName === 'string' ? (encodingName as BufferEncoding) : 'utf8',
            )
          : (chunk as Buffer);
      if (mode === 'pass') {
        sendHead();
        return write.call(res, chunk, encodingName, callback);
      }
      if (mode === 'whole') {
        chunks.push(Buffer.from(bytes));
        if (cb) process.nextTick(cb);
        return true;
      }
      send(rewrite(bytes));
      if (cb) process.nextTick(cb);
      return true;
    } as ServerResponse['write'];
    res.end = function (chunk?: unknown, encodingName?: unknown, callback?: unknown) {
      if (typeof chunk === 'function') [chunk, callback] = [undefined, chunk];
      if (typeof encodingName === 'function') [encodingName, callback] = [undefined, encodingName];
      const bytes =
        chunk === undefined || chunk === null
          ? null
          : typeof chunk === 'string'
            ? Buffer.from(chunk, (encodingName as BufferEncoding | undefined) ?? 'utf8')
            : Buffer.from(chunk as Uint8Array);
      if (mode === null) decide(false);
      if (mode === 'stream') {
        if (callback) res.once('finish', callback as () => void);
        if (bytes) send(rewrite(bytes));
        const tail = rewrite(null);
        if (stream) {
          if (tail.length) stream.write(tail);
          stream.end();
        } else end.call(res, tail.length ? tail : undefined);
        return res;
      }
      if (mode === null || mode === 'whole') {
        let body = Buffer.concat([...chunks, ...(bytes ? [bytes] : [])]);
        if (html) body = Buffer.concat([rewrite(body), rewrite(null)]);
        const compressed = compressible() ? compressWhole(body) : null;
        if (compressed) {
          varyOnEncoding(res);
          res.setHeader('Content-Encoding', String(encoding));
          res.setHeader('Content-Length', compressed.length);
          sendHead();
          return end.call(res, compressed, callback);
        }
        if (mode === 'whole' || html) res.setHeader('Content-Length', body.length);
        sendHead();
        return end.call(res, body.length || bytes ? body : undefined, callback);
      }
      if (html) {
        // Not compressible (an HTML page the client takes uncompressed), sent whole.
        const body = Buffer.concat([...(bytes ? [rewrite(bytes)] : []), rewrite(null)]);
        res.setHeader('Content-Length', body.length);
        sendHead();
        return end.call(res, body, callback);
      }
      sendHead();
      return end.call(res, chunk, encodingName, callback);
    } as ServerResponse['end'];
    return handler(req, res);
  };
}
