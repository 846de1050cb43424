// The TLS edge of the benchmark: HTTPS with HTTP/2 in front of `next start`, the way visitors reach
// the deployed site (a CDN or reverse proxy terminates TLS; the site sends HSTS). Lighthouse's
// simulation charges every new HTTP/1.1 connection a handshake and TCP slow start, so measuring
// plain HTTP/1.1 on loopback would price a transport no visitor uses (`npm run bench -- --direct`
// still measures it).
import http from 'node:http';
import http2 from 'node:http2';
import proxy from 'http2-proxy';
import selfsigned from 'selfsigned';

/**
 * Starts an HTTPS server on 127.0.0.1:`port` (0: any free port; HTTP/2, and HTTP/1.1 for clients
 * without ALPN h2) that forwards every request to `http://127.0.0.1:${targetPort}` over kept-alive
 * connections, adding `X-Forwarded-Proto: https` (the site trusts it with TRUST_PROXY=1). The
 * certificate is a throwaway self-signed one made for this run; Chromium is told to accept it.
 * Rejects when the port cannot be bound.
 * @param {{ port: number, targetPort: number }} options
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startTlsEdge({ port, targetPort }) {
  const pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const agent = new http.Agent({ keepAlive: true });
  const server = http2.createSecureServer({
    key: pems.private,
    cert: pems.cert,
    allowHTTP1: true,
  });
  server.on('request', (req, res) => {
    proxy.web(
      req,
      res,
      {
        hostname: '127.0.0.1',
        port: targetPort,
        onReq: (_req, options) => {
          options.headers['x-forwarded-proto'] = 'https';
          return http.request({ ...options, agent });
        },
      },
      (error) => {
        if (!error) return;
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end('bad gateway');
      },
    );
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `https://127.0.0.1:${server.address().port}`,
    stop: async () => {
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
