import http from 'node:http';
import https from 'node:https';

/** One HTTP response, read whole. */
export type HttpResponse = { status: number; headers: http.IncomingHttpHeaders; text: string };

export type HttpOptions = {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** Source address of the connection (any 127.x.y.z on Linux), so loopback clients are distinct. */
  localAddress?: string;
  /** Give up after this long (ms, default 30 s). */
  timeoutMs?: number;
};

/**
 * A plain HTTP(S) request over a fresh connection (no keep-alive), accepting the test edge's
 * self-signed certificate. Unlike `fetch`, it can choose the source address.
 * @throws on network errors and on timeout.
 */
export function httpRequest(url: string, options: HttpOptions = {}): Promise<HttpResponse> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.localAddress,
        rejectUnauthorized: false,
        agent: false,
        timeout: options.timeoutMs ?? 30_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () =>
      request.destroy(new Error(`${url}: no answer within ${options.timeoutMs ?? 30_000} ms`)),
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
