// Brotli for `npm start` (Next.js's own compression is gzip only): wraps the server's request
// handler. For a GET whose client accepts `br`, Next.js is asked for the uncompressed body and
// - a body sent whole (a prerendered page, a file under /_next/static/) is answered with its copy
//   precompressed at build (scripts/build/precompress.ts, `<distDir>/precompressed/`) when there
//   is one, else compressed here (quality 5; hashed static files are then kept in memory);
// - a streamed body (a page rendered per request) is compressed as it streams (quality 5),
//   flushed after each chunk so that streaming still reaches the visitor chunk by chunk.
// Everything else (other methods, clients without `br`) goes untouched to Next.js, which gzips.
// Headers set by the site (CSP, caching, ETag) are kept; `Vary: Accept-Encoding` is added.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliCompressSync, constants, createBrotliCompress } from 'node:zlib';

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
 * Wraps `handler` (a Node.js request listener) with brotli as described above.
 * @param {(req: http.IncomingMessage, res: http.ServerResponse) => unknown} handler
 * @param {Map<string, Buffer>} precompressed
 */
export function withBrotli(handler, precompressed) {
  /** Compressed copies of hashed, immutable files under /_next/static/, by URL. */
  const staticCache = new Map();
  return function brotliHandler(req, res) {
    if (req.method !== 'GET' || !acceptsBrotli(req.headers['accept-encoding']))
      return handler(req, res);
    req.headers['accept-encoding'] = 'identity';
    const url = req.url ?? '';
    const immutable = url.startsWith('/_next/static/') && !url.includes('?');
    const { writeHead, write, end, flushHeaders } = res;
    /** @type {null | 'pass' | 'stream' | 'whole'} */
    let mode = null;
    let stream = null;
    let headArgs = null;

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
      !res.getHeader('content-encoding') &&
      res.statusCode >= 200 &&
      res.statusCode !== 204 &&
      res.statusCode !== 304 &&
      COMPRESSIBLE.test(String(res.getHeader('content-type') ?? ''));
    const startStream = () => {
      varyOnEncoding(res);
      res.removeHeader('content-length');
      res.setHeader('Content-Encoding', 'br');
      sendHead();
      stream = createBrotliCompress(FAST);
      stream.on('data', (chunk) => write.call(res, chunk));
      stream.on('end', () => end.call(res));
    };
    /** The whole body: its precompressed copy, or compressed now; null when not worth it. */
    const compressWhole = (body) => {
      if (body.length < MIN_BYTES) return null;
      if (immutable && staticCache.has(url)) return staticCache.get(url);
      const compressed =
        precompressed.get(createHash('sha256').update(body).digest('hex')) ??
        brotliCompressSync(body, FAST);
      if (immutable) staticCache.set(url, compressed);
      return compressed;
    };
    const chunks = [];

    res.flushHeaders = function () {
      if (mode === null) {
        mode = compressible() ? 'stream' : 'pass';
        if (mode === 'stream') startStream();
      }
      sendHead();
      return flushHeaders.call(res);
    };
    res.write = function (chunk, encoding, callback) {
      if (mode === null) {
        mode = !compressible() ? 'pass' : immutable ? 'whole' : 'stream';
        if (mode === 'stream') startStream();
      }
      const cb = typeof encoding === 'function' ? encoding : callback;
      const bytes =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8')
          : chunk;
      if (mode === 'pass') {
        sendHead();
        return write.call(res, chunk, encoding, callback);
      }
      if (mode === 'whole') {
        chunks.push(Buffer.from(bytes));
        if (cb) process.nextTick(cb);
        return true;
      }
      stream.write(bytes);
      stream.flush();
      if (cb) process.nextTick(cb);
      return true;
    };
    res.end = function (chunk, encoding, callback) {
      if (typeof chunk === 'function') [chunk, callback] = [undefined, chunk];
      if (typeof encoding === 'function') [encoding, callback] = [undefined, encoding];
      const bytes =
        chunk === undefined || chunk === null
          ? null
          : typeof chunk === 'string'
            ? Buffer.from(chunk, encoding ?? 'utf8')
            : Buffer.from(chunk);
      if (mode === 'stream') {
        if (callback) res.once('finish', callback);
        if (bytes) stream.write(bytes);
        stream.end();
        return res;
      }
      if (mode === null || mode === 'whole') {
        const body = Buffer.concat([...chunks, ...(bytes ? [bytes] : [])]);
        const compressed = compressible() ? compressWhole(body) : null;
        if (compressed) {
          varyOnEncoding(res);
          res.setHeader('Content-Encoding', 'br');
          res.setHeader('Content-Length', compressed.length);
          sendHead();
          return end.call(res, compressed, callback);
        }
        if (mode === 'whole') res.setHeader('Content-Length', body.length);
        sendHead();
        return end.call(res, body.length || bytes ? body : undefined, callback);
      }
      sendHead();
      return end.call(res, chunk, encoding, callback);
    };
    return handler(req, res);
  };
}

/**
 * Makes every server created from now on with `http.createServer` use {@link withBrotli}: the
 * standalone server.js of `next build` creates its own server, with no hook to wrap its handler.
 * @param {string} distDir the build folder of the server about to start
 */
export function installBrotli(distDir) {
  const precompressed = loadPrecompressed(distDir);
  const createServer = http.createServer;
  http.createServer = function (...args) {
    const index = args.findIndex((arg) => typeof arg === 'function');
    if (index >= 0) args[index] = withBrotli(args[index], precompressed);
    return createServer.apply(this, args);
  };
}
