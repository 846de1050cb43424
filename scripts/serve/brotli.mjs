// Brotli for `npm start` (Next.js's own compression is gzip only): wraps the server's request
// handler. For a GET whose client accepts `br`, Next.js is asked for the uncompressed body and
// - a body sent whole (a prerendered page, a file under /_next/static/) is answered with its copy
//   precompressed at build (scripts/build/precompress.ts, `<distDir>/precompressed/`) when there
//   is one, else compressed here (quality 5; hashed static files are then kept in memory);
// - a streamed body (a page rendered per request) is compressed as it streams (quality 5),
//   flushed after each chunk so that streaming still reaches the visitor chunk by chunk.
// A page rendered per request (HTML under a CSP nonce; not the console) is also rewritten as it
// streams so that its scripts wait for `load` (./deferred-html.mjs): for those requests (any method
// but HEAD, any encoding) Next.js is asked for the uncompressed body, which is rewritten and then
// compressed here with brotli or gzip, whichever the client accepts.
// Everything else (other methods, clients without `br`) goes untouched to Next.js, which gzips.
// Headers set by the site (CSP, caching, ETag) are kept; `Vary: Accept-Encoding` is added.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gzipSync,
} from 'node:zlib';
import { createDeferredHtml, loadLoaderManifest, nonceOf } from './deferred-html.mjs';
import { atLoadScripts } from './loader.mjs';

/** Content types worth compressing. */
const COMPRESSIBLE =
  /^(text\/|application\/(javascript|json|manifest\+json|xml|rss\+xml)|image\/svg\+xml)/i;
/** Bodies smaller than this are sent as they are. */
const MIN_BYTES = 1024;
const FAST = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };

/**
 * Whether an `Accept-Encoding` header accepts brotli (`br` listed without `q=0`).
 * @param {string | undefined} header
 */
export function acceptsBrotli(header) {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [name = '', ...params] = part.trim().split(';');
    if (name.trim().toLowerCase() !== 'br') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * Whether an `Accept-Encoding` header accepts gzip (`gzip` listed without `q=0`).
 * @param {string | undefined} header
 */
function acceptsGzip(header) {
  return (header ?? '').split(',').some((part) => {
    const [name = '', ...params] = part.trim().split(';');
    if (name.trim().toLowerCase() !== 'gzip') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** Paths whose pages are never rewritten: the console, the API, Next.js's own files. */
const NOT_REWRITTEN = /^\/(admin|api|_next)(\/|\?|$)/;

/**
 * The bodies precompressed at build: SHA-256 (hex) of the uncompressed body -> brotli bytes.
 * Empty (with a warning) when the build has none.
 * @param {string} distDir the build folder the server runs
 * @returns {Map<string, Buffer>}
 */
export function loadPrecompressed(distDir) {
  const folder = path.join(distDir, 'precompressed');
  const bodies = new Map();
  let keys;
  try {
    keys = JSON.parse(readFileSync(path.join(folder, 'index.json'), 'utf8'));
  } catch {
    console.warn(`No precompressed pages in ${folder}: brotli is computed per response.`);
    return bodies;
  }
  for (const key of keys) bodies.set(key, readFileSync(path.join(folder, `${key}.br`)));
  return bodies;
}

/** Adds `Accept-Encoding` to the response's `Vary`. */
function varyOnEncoding(res) {
  const vary = String(res.getHeader('vary') ?? '');
  if (!/\baccept-encoding\b/i.test(vary))
    res.setHeader('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Wraps `handler` (a Node.js request listener) with brotli and the rewrite of pages rendered per
 * request, as described above.
 * @param {(req: http.IncomingMessage, res: http.ServerResponse) => unknown} handler
 * @param {Map<string, Buffer>} precompressed
 * @param {{ deferHtml?: boolean, atLoad?: readonly string[] }} [options] `deferHtml`: rewrite pages
 *   rendered per request; `atLoad`: the scripts their loader runs at once after `load`
 */
export function withBrotli(handler, precompressed, options = {}) {
  /** Compressed copies of hashed, immutable files under /_next/static/, by URL. */
  const staticCache = new Map();
  return function brotliHandler(req, res) {
    const url = req.url ?? '';
    const accept = req.headers['accept-encoding'];
    const rewritable =
      Boolean(options.deferHtml) && req.method !== 'HEAD' && !NOT_REWRITTEN.test(url);
    /** @type {'br' | 'gzip' | null} */
    const encoding = acceptsBrotli(accept) ? 'br' : acceptsGzip(accept) ? 'gzip' : null;
    if (!rewritable && (req.method !== 'GET' || encoding !== 'br')) return handler(req, res);
    req.headers['accept-encoding'] = 'identity';
    const immutable = url.startsWith('/_next/static/') && !url.includes('?');
    const { writeHead, write, end, flushHeaders } = res;
    /** @type {null | 'pass' | 'stream' | 'whole'} */
    let mode = null;
    let stream = null;
    let headArgs = null;
    /** The rewrite of a page rendered per request, with its decoder; null for anything else. */
    let html = null;

    let sending = false;
    res.writeHead = function (status, ...rest) {
      if (sending) return writeHead.call(res, status);
      // Applied to the response now, sent with the first body bytes (when the encoding is known).
      res.statusCode = status;
      const headers = rest.find((arg) => typeof arg === 'object' && arg !== null);
      if (typeof rest[0] === 'string') res.statusMessage = rest[0];
      if (Array.isArray(headers))
        for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1]);
      else if (headers) for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      headArgs = [status];
      return res;
    };
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
    const decide = (streamed, headNow = false) => {
      const nonce = nonceOf(res.getHeader('content-security-policy'));
      if (
        rewritable &&
        nonce &&
        !res.getHeader('content-encoding') &&
        /^text\/html\b/i.test(String(res.getHeader('content-type') ?? ''))
      )
        html = {
          page: createDeferredHtml({ nonce, atLoad: options.atLoad }),
          decoder: new TextDecoder(),
        };
      if (!compressible()) mode = html && streamed ? 'stream' : 'pass';
      else mode = immutable && !headNow ? 'whole' : streamed ? 'stream' : null;
      if (mode === 'stream') startStream();
    };
    /** The rewritten bytes of a piece of the page (`null`: the end). */
    const rewrite = (bytes) => {
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
      res.setHeader('Content-Encoding', encoding);
      sendHead();
      stream = encoding === 'br' ? createBrotliCompress(FAST) : createGzip();
      stream.on('data', (chunk) => write.call(res, chunk));
      stream.on('end', () => end.call(res));
    };
    /** Sends rewritten bytes down the stream: compressed, or as they are. */
    const send = (bytes) => {
      if (stream) {
        stream.write(bytes);
        stream.flush();
      } else if (bytes.length) write.call(res, bytes);
    };
    /** The whole body: its precompressed copy, or compressed now; null when not worth it. */
    const compressWhole = (body) => {
      if (body.length < MIN_BYTES) return null;
      if (encoding === 'gzip') return gzipSync(body);
      if (immutable && staticCache.has(url)) return staticCache.get(url);
      const compressed =
        precompressed.get(createHash('sha256').update(body).digest('hex')) ??
        brotliCompressSync(body, FAST);
      if (immutable) staticCache.set(url, compressed);
      return compressed;
    };
    const chunks = [];

    res.flushHeaders = function () {
      if (mode === null) decide(true, true);
      sendHead();
      return flushHeaders.call(res);
    };
    res.write = function (chunk, encodingName, callback) {
      if (mode === null) decide(true);
      const cb = typeof encodingName === 'function' ? encodingName : callback;
      const bytes =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encodingName === 'string' ? encodingName : 'utf8')
          : chunk;
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
    };
    res.end = function (chunk, encodingName, callback) {
      if (typeof chunk === 'function') [chunk, callback] = [undefined, chunk];
      if (typeof encodingName === 'function') [encodingName, callback] = [undefined, encodingName];
      const bytes =
        chunk === undefined || chunk === null
          ? null
          : typeof chunk === 'string'
            ? Buffer.from(chunk, encodingName ?? 'utf8')
            : Buffer.from(chunk);
      if (mode === null) decide(false);
      if (mode === 'stream') {
        if (callback) res.once('finish', callback);
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
          res.setHeader('Content-Encoding', encoding);
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
    };
    return handler(req, res);
  };
}

/**
 * Makes every server created from now on with `http.createServer` use {@link withBrotli} (with the
 * rewrite of pages rendered per request, and the build's visit beacon and page script): the
 * standalone server.js of `next build` creates its own server, with no hook to wrap its handler.
 * @param {string} distDir the build folder of the server about to start
 */
export function installBrotli(distDir) {
  const precompressed = loadPrecompressed(distDir);
  const atLoad = atLoadScripts(loadLoaderManifest(distDir));
  const createServer = http.createServer;
  http.createServer = function (...args) {
    const index = args.findIndex((arg) => typeof arg === 'function');
    if (index >= 0)
      args[index] = withBrotli(args[index], precompressed, { deferHtml: true, atLoad });
    return createServer.apply(this, args);
  };
}
