import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import selfsigned from 'selfsigned';
import { freePort } from '@/server/test-support/smtp';
import { httpRequest } from './http';
import { repoRoot } from './next-server';

/** The reference edge (deploy/nginx.conf) running as a child process of the test. */
export type Edge = {
  /** `https://127.0.0.1:<port>` */
  url: string;
  /** `http://127.0.0.1:<port>` (redirects to `url`) */
  httpUrl: string;
  /** What nginx wrote to its error log so far. */
  errors(): string;
  stop(): Promise<void>;
};

/**
 * Fills the `${NAME}` placeholders of deploy/nginx.conf.
 * @throws when the template names a placeholder `values` lacks (the template and its users drifted).
 */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\$\{([A-Z_]+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`deploy/nginx.conf: no value for \${${name}}`);
    return value;
  });
}

/**
 * Starts Debian's nginx with deploy/nginx.conf in front of `upstreams` (`host:port`, each skipped
 * `failTimeoutS` seconds after a failure), on loopback,
 * with a throwaway self-signed certificate, in a temporary directory removed on stop.
 * @throws when nginx is missing, refuses the configuration or does not answer within 15 s.
 */
export async function startEdge(upstreams: string[], failTimeoutS = 10): Promise<Edge> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edge-'));
  mkdirSync(path.join(dir, 'cache'));
  const pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  writeFileSync(path.join(dir, 'cert.pem'), pems.cert);
  writeFileSync(path.join(dir, 'key.pem'), pems.private);
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const conf = fillTemplate(readFileSync(path.join(repoRoot, 'deploy/nginx.conf'), 'utf8'), {
    RUN_DIR: dir,
    CACHE_DIR: path.join(dir, 'cache'),
    LISTEN_ADDRESS: '127.0.0.1',
    HTTP_PORT: String(httpPort),
    HTTPS_PORT: String(httpsPort),
    SERVER_NAME: '127.0.0.1',
    CERT: path.join(dir, 'cert.pem'),
    KEY: path.join(dir, 'key.pem'),
    UPSTREAMS: upstreams
      .map((upstream) => `server ${upstream} max_fails=1 fail_timeout=${failTimeoutS}s;`)
      .join('\n    '),
  });
  writeFileSync(path.join(dir, 'nginx.conf'), conf);
  const child = spawn(
    'nginx',
    ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off; user root;'],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errors = () => {
    try {
      return readFileSync(path.join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const edge: Edge = {
    url: `https://127.0.0.1:${httpsPort}`,
    httpUrl: `http://127.0.0.1:${httpPort}`,
    errors,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGQUIT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await httpRequest(`${edge.httpUrl}/`, { timeoutMs: 2_000 });
      return edge;
    } catch {
      if (child.exitCode !== null || Date.now() > deadline) {
        await edge.stop();
        throw new Error(`nginx did not start:\n${errors()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
