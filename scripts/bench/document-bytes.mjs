// Bytes of an HTML document on the wire: the response's status line, headers and body exactly as
// sent over HTTP/1.1 to a client that sends `Accept-Encoding: br, gzip` (docs/performance.md: every
// public page must fit the first round trip, 14,600 bytes).
import net from 'node:net';
import tls from 'node:tls';
import { ROUTES } from './config.mjs';

/** What fits the first round trip of a new connection (10 TCP segments of 1,460 bytes). */
export const FIRST_ROUND_TRIP_BYTES = 14_600;

/** Every public page: the routes the bench measures (scripts/bench/config.mjs). */
export const PUBLIC_ROUTES = ROUTES;

/**
 * One GET of `url` over a fresh HTTP/1.1 connection (TLS for https:, certificate not checked).
 * @param {string} url
 * @param {{ acceptEncoding?: string }} [options]
 * @returns {Promise<{ bytes: number, headerBytes: number, status: number, encoding: string }>}
 */
export function documentBytes(url, { acceptEncoding = 'br, gzip' } = {}) {
  const target = new URL(url);
  const https = target.protocol === 'https:';
  const port = Number(target.port || (https ? 443 : 80));
  return new Promise((resolve, reject) => {
    const socket = https
      ? tls.connect({
          host: target.hostname,
          port,
          rejectUnauthorized: false,
          ALPNProtocols: ['http/1.1'],
        })
      : net.connect({ host: target.hostname, port });
    const chunks = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error(`timeout on ${url}`)));
    socket.on(https ? 'secureConnect' : 'connect', () =>
      socket.write(
        `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n` +
          `User-Agent: document-bytes\r\nAccept: text/html\r\nAccept-Encoding: ${acceptEncoding}\r\n` +
          'Connection: close\r\n\r\n',
      ),
    );
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const response = Buffer.concat(chunks);
      const headEnd = response.indexOf('\r\n\r\n');
      const head = response.subarray(0, headEnd).toString('latin1');
      resolve({
        bytes: response.length,
        headerBytes: headEnd + 4,
        status: Number(head.split(' ')[1]),
        encoding: /\r\ncontent-encoding:\s*([^\r]*)/i.exec(head)?.[1] ?? 'identity',
      });
    });
  });
}
