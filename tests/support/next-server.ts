import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '@test/smtp';
import { TEST_SECRET } from '@test/form-token';
import { until } from '@test/enquiry';

/** Repository root (where `.next` and `node_modules` are). */
export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** A production server started by a test, with what it printed. */
export type ProductionServer = {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the server wrote to stdout and stderr so far (pino JSON lines and Next.js's own). */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string | null>;
  /** Sends `signal` (default SIGTERM) and waits for the exit, SIGKILL after `graceMs` (default 35 s). */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | string | null>;
};

export type StartOptions = {
  /**
   * Extra environment for the server (merged over this process's, LOG_LEVEL info,
   * `FORM_SECRET` {@link TEST_SECRET} by default, so a test can sign the server's form tokens, and
   * SITE_URL the server's own `http://127.0.0.1:<port>`).
   */
  env?: Record<string, string | undefined>;
  /** Port to listen on (default: a free one). */
  port?: number;
  /** Command and arguments (default: `npm start`'s `node scripts/start.mjs`, the standalone server, in the repo root; PORT and HOSTNAME select the address). */
  command?: (port: number) => { file: string; args: string[]; cwd: string };
  /** Path that must answer (any status below 500) before the server counts as started. Default `/`. */
  readyPath?: string;
  /** How long to wait for readiness (ms, default 90 s). */
  timeoutMs?: number;
  /** Run as this user (needs root), e.g. so file permissions hold as they would in a container. */
  user?: { uid: number; gid: number };
  /**
   * Start the command as the leader of its own process group and signal the whole group on stop,
   * as a terminal's Ctrl-C does: for a wrapper such as `npm start`, whose shell does not pass a
   * signal on to the server it started.
   */
  processGroup?: boolean;
};

/**
 * Starts the production build (the standalone server as `npm start` runs it, or another command) as a real child process and waits
 * until `readyPath` answers below 500.
 * @throws when the process exits or does not answer within `timeoutMs` (its output is in the message).
 */
export async function startProductionServer(options: StartOptions = {}): Promise<ProductionServer> {
  const port = options.port ?? (await freePort());
  const { file, args, cwd } = options.command?.(port) ?? {
    file: process.execPath,
    args: [path.join(repoRoot, 'scripts/start.mjs')],
    cwd: repoRoot,
  };
  const child = spawn(file, args, {
    cwd,
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      FORM_SECRET: TEST_SECRET,
      PORT: String(port),
      HOSTNAME: '127.0.0.1',
      // The site's own address: required (https:, or http: on loopback) once SMTP_URL or
      // ADMIN_EMAILS is set, since the e-mailed links point there.
      SITE_URL: `http://127.0.0.1:${port}`,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.processGroup ?? false,
    ...options.user,
  });
  /** Signals the server, or its whole process group (`processGroup`). */
  const signalServer = (signal: NodeJS.Signals) => {
    if (options.processGroup && child.pid) process.kill(-child.pid, signal);
    else child.kill(signal);
  };
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  let ended = false;
  void exited.then(() => (ended = true));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  for (;;) {
    if (ended) throw new Error(`Server exited before it was ready:\n${output}`);
    if (((await probe(url + (options.readyPath ?? '/'))) ?? 500) < 500) break;
    if (Date.now() > deadline) {
      signalServer('SIGKILL');
      throw new Error(`Server not ready after ${options.timeoutMs ?? 90_000} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    port,
    child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM', graceMs = 35_000) {
      if (!ended) {
        signalServer(signal);
        const timer = setTimeout(() => signalServer('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
  };
}

/**
 * The status of one GET of `url` with its whole body read, or undefined when nothing answered
 * within 5 s. The time limit is a timer of its own, not only the request's abort signal, so a
 * connection that stalls anywhere cannot hold the readiness loop past its deadline.
 */
async function probe(url: string): Promise<number | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const request = (async () => {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return response.status;
  })();
  const limit = new Promise<undefined>(
    (resolve) => (timer = setTimeout(() => resolve(undefined), 5_500)),
  );
  try {
    return await Promise.race([request.catch(() => undefined), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** The pino JSON lines a server printed, parsed (other lines skipped). */
export function logLines(output: string): Array<Record<string, unknown>> {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

/**
 * Waits until `server` has printed at least `count` pino lines that `match`, then returns every
 * such line so far. The server logs as it answers, but a line can reach this process's pipe after
 * the answer does: a test that asserts on the log waits for the line rather than reading the
 * output once.
 * @param timeoutMs how long to wait (default 10 s)
 * @throws when fewer than `count` such lines came within `timeoutMs`
 */
export async function loggedLines(
  server: Pick<ProductionServer, 'output'>,
  match: (line: Record<string, unknown>) => boolean,
  count = 1,
  timeoutMs = 10_000,
): Promise<Array<Record<string, unknown>>> {
  const lines = () => logLines(server.output()).filter(match);
  await until(async () => lines().length >= count, timeoutMs);
  return lines();
}
