// Debian's nginx as a child process: the reference edge (deploy/nginx.conf) in front of site
// instances, and a plain static server for comparison. Used by tests/production/scale-out.test.ts
// and by `npm run bench`.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import selfsigned from 'selfsigned';

const repo = path.resolve(import.meta.dirname, '../..');

/**
 * Fills the `${NAME}` placeholders of deploy/nginx.conf.
 * @param {string} template
 * @param {Record<string, string>} values
 * @returns {string}
 * @throws {Error} when the template names a placeholder `values` lacks (template and users drifted)
 */
export function fillTemplate(template, values) {
  return template.replace(/\$\{([A-Z_]+)\}/g, (_match, name) => {
    const value = values[name];
    if (value === undefined) throw new Error(`deploy/nginx.conf: no value for \${${name}}`);
    return value;
  });
}

/** A free loopback port (listen on 0, read it, release it). */
async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {net.AddressInfo} */ (probe.address());
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A throwaway directory with a self-signed certificate for 127.0.0.1 (cert.pem, key.pem). */
async function runDirectory() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nginx-'));
  mkdirSync(path.join(dir, 'cache'));
  const pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  writeFileSync(path.join(dir, 'cert.pem'), pems.cert);
  writeFileSync(path.join(dir, 'key.pem'), pems.private);
  return dir;
}

/**
 * Runs `nginx -p dir -c dir/nginx.conf` in the foreground until `port` accepts connections.
 * @returns {Promise<{ errors: () => string, accessLog: () => string, stop: () => Promise<void> }>}
 *   `stop` also removes `dir`
 * @throws {Error} when nginx exits or `port` is not open within 15 s (with nginx's error log)
 */
async function runNginx(dir, conf, port) {
  writeFileSync(path.join(dir, 'nginx.conf'), conf);
  // `user root` lets the workers read the 0700 temporary directory when the run is as root.
  const child = spawn(
    'nginx',
    ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off; user root;'],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  /** @param {string} name a log file in `dir`; '' while nginx has not written it */
  const readLog = (name) => {
    try {
      return readFileSync(path.join(dir, name), 'utf8');
    } catch {
      return '';
    }
  };
  const errors = () => readLog('error.log');
  const accessLog = () => readLog('access.log');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return { errors, accessLog, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      const log = errors();
      await stop();
      throw new Error(`nginx did not start:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Starts the reference edge (deploy/nginx.conf) in front of `upstreams` (`host:port`, each skipped
 * for `failTimeoutS` seconds after a failure), on loopback, with a throwaway certificate.
 * @param {string[]} upstreams
 * @param {number} [failTimeoutS] default 10, as in production
 * @returns {Promise<{ url: string, httpUrl: string, errors: () => string, accessLog: () => string, stop: () => Promise<void> }>}
 * @throws {Error} when nginx is missing or refuses the configuration
 */
export async function startEdge(upstreams, failTimeoutS = 10) {
  const dir = await runDirectory();
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const conf = fillTemplate(readFileSync(path.join(repo, 'deploy/nginx.conf'), 'utf8'), {
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
  const nginx = await runNginx(dir, conf, httpsPort);
  return {
    url: `https://127.0.0.1:${httpsPort}`,
    httpUrl: `http://127.0.0.1:${httpPort}`,
    ...nginx,
  };
}

/**
 * Starts nginx serving the HTML files under `root` from disk (`/` -> index.html, `/a/b` ->
 * a/b.html) over TLS and HTTP/2 with gzip, as the edge serves: the bench's upper bound.
 * @param {string} root
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startStaticNginx(root) {
  const dir = await runDirectory();
  const port = await freePort();
  const conf = `worker_processes auto;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body; proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  default_type text/html;
  gzip on;
  server {
    listen 127.0.0.1:${port} ssl http2;
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;
    root ${root};
    location = / { try_files /index.html =404; }
    location / { try_files $uri.html =404; }
  }
}
`;
  const nginx = await runNginx(dir, conf, port);
  return { url: `https://127.0.0.1:${port}`, stop: nginx.stop };
}

/** A script, or a script preload hint, in HTML (as src/lib/security/inline-scripts.ts strips them). */
const SCRIPT = /<script\b([^>]*)>[\s\S]*?<\/script\s*>/gi;
const SCRIPT_PRELOAD = /<link\b(?=[^>]*\bas="script")[^>]*>/gi;

/** `html` without the scripts a browser would run (JSON-LD and other data blocks stay). */
export function withoutScripts(html) {
  return html
    .replace(SCRIPT, (whole, attributes) =>
      /\btype\s*=\s*"application\/(ld\+)?json"/i.test(attributes) ? whole : '',
    )
    .replace(SCRIPT_PRELOAD, '');
}

/**
 * Response headers that describe the body or the connection, which nginx sets for the copy
 * itself; every other header of the site's page (its defences: CSP, Cross-Origin-Opener-Policy,
 * Permissions-Policy and the rest) the no-JS copy sends as the site sent it. COOP alone puts the
 * page in a browsing context group, and so a renderer process, of its own (docs/performance.md).
 */
const BODY_HEADERS = new Set([
  'connection',
  'content-encoding',
  'content-length',
  'content-type',
  'date',
  'etag',
  'keep-alive',
  'last-modified',
  'transfer-encoding',
  'vary',
]);

/**
 * nginx `add_header` directives (one per line, `always`) for the headers of a site's page other
 * than {@link BODY_HEADERS}, quoted for nginx.
 * @param {Headers} headers
 * @returns {string}
 * @throws {Error} when a value holds a `$` (nginx would read a variable) or a line break
 */
export function pageHeaderDirectives(headers) {
  return [...headers]
    .filter(([name]) => !BODY_HEADERS.has(name))
    .map(([name, value]) => {
      if (/[$\r\n]/.test(value))
        throw new Error(`no-JS copy: cannot copy header ${name}: ${value}`);
      return `add_header ${name} "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}" always;`;
    })
    .join('\n      ');
}

/**
 * The physical limit for the site's content: each of `routes` as the site serves it now, with
 * every script removed, served by nginx from disk over TLS and HTTP/2 with brotli and gzip, with
 * the site's headers (so that it differs from the site's page by its scripts only);
 * the files they use (/_next/static/ and the rest) from `staticDir` or, failing that, the site.
 * @param {string} siteUrl the running site (plain HTTP)
 * @param {string[]} routes
 * @param {string} staticDir the build's `static` folder
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startNoJsCopy(siteUrl, routes, staticDir) {
  const dir = await runDirectory();
  const root = path.join(dir, 'pages');
  const locations = [];
  for (const route of routes) {
    const response = await fetch(siteUrl + route);
    if (!response.ok) throw new Error(`no-JS copy: ${route} answered ${response.status}`);
    const name = route === '/' ? '/index.html' : `${route}.html`;
    const file = path.join(root, name.slice(1));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, withoutScripts(await response.text()));
    locations.push(`location = ${route} {
      default_type text/html;
      ${pageHeaderDirectives(response.headers)}
      try_files ${name} =404;
    }`);
  }
  const port = await freePort();
  const conf = `load_module /usr/lib/nginx/modules/ngx_http_brotli_filter_module.so;
worker_processes auto;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body; proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  include /etc/nginx/mime.types;
  gzip on;
  gzip_types text/css application/javascript image/svg+xml;
  brotli on;
  brotli_types text/html text/css application/javascript image/svg+xml;
  server {
    listen 127.0.0.1:${port} ssl http2;
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;
    root ${root};
    location /_next/static/ {
      alias ${staticDir}/;
      add_header Cache-Control "public, max-age=31536000, immutable";
    }
    ${locations.join('\n    ')}
    location / { proxy_pass ${siteUrl}; }
  }
}
`;
  const nginx = await runNginx(dir, conf, port);
  return { url: `https://127.0.0.1:${port}`, stop: nginx.stop };
}
