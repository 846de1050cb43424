import type { RequestListener } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import selfsigned from 'selfsigned';

/** A certificate and its private key, PEM. */
export type TestCertificate = { cert: string; key: string };

/**
 * A throwaway self-signed certificate for `127.0.0.1` (and `localhost`), valid for a day. A process
 * trusts it when started with `NODE_EXTRA_CA_CERTS` naming a file that holds `cert` (read by Node
 * once, at start: set it in the environment of the process to start, not in a running one).
 */
export async function testCertificate(): Promise<TestCertificate> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 24 * 60 * 60_000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/**
 * The certificate of this Vitest run (tests/support/tls-global-setup.ts made it and put it into
 * `NODE_EXTRA_CA_CERTS`, so this process's `fetch` trusts it).
 * @throws when the global setup did not run
 */
export function runCertificate(): TestCertificate {
  const cert = process.env.TEST_TLS_CERT_FILE;
  const key = process.env.TEST_TLS_KEY_FILE;
  if (!cert || !key) throw new Error('No test certificate: run through vitest.config.mts');
  return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
}

/**
 * Starts an HTTPS server with `certificate` on an ephemeral loopback port.
 * @returns the server and its origin, `https://127.0.0.1:<port>`
 */
export async function startHttpsServer(
  certificate: TestCertificate,
  listener?: RequestListener,
): Promise<{ server: Server; origin: string }> {
  const server = createServer({ cert: certificate.cert, key: certificate.key }, listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
