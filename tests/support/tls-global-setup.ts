import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testCertificate } from './https';

/**
 * Vitest global setup: a self-signed certificate for this run, trusted by every test process
 * through `NODE_EXTRA_CA_CERTS` (the test processes start after this and inherit the environment),
 * so tests serve real HTTPS (busy feeds are fetched over `https:` only) without any insecure flag.
 * Test servers find it through `TEST_TLS_CERT_FILE` and `TEST_TLS_KEY_FILE`.
 */
export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'nirmaya-test-tls-'));
  const { cert, key } = await testCertificate();
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  writeFileSync(certFile, cert);
  writeFileSync(keyFile, key, { mode: 0o600 });
  process.env.NODE_EXTRA_CA_CERTS = certFile;
  process.env.TEST_TLS_CERT_FILE = certFile;
  process.env.TEST_TLS_KEY_FILE = keyFile;
  return () => rmSync(dir, { recursive: true, force: true });
}
