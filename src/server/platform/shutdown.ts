import 'server-only';
import { errorFacts, log } from './log';

/** Exit codes by signal (128 + its number), as Next.js and shells use. */
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

export type ShutdownOptions = {
  /** The process must be gone this long after the signal (ms). Default 28 s (within 30 s). */
  deadlineMs?: number;
};

/**
 * Runs `stop` once on the first SIGTERM or SIGINT (graceful shutdown, docs/operations.md), however
 * the server was launched (`next start`, the standalone `server.js`, a custom server):
 * - `next start` has its own handlers (unless NEXT_MANUAL_SIG_HANDLE is set) that close the HTTP
 *   server and then call `process.exit` without waiting for anyone else; so while `stop` runs, a
 *   `process.exit` call is held back until it has finished;
 * - when no other handler of the signal exists, this one exits once `stop` has finished;
 * - either way the process exits by `deadlineMs` after the signal, even if `stop` hangs.
 * Returns a function removing the handlers (tests).
 */
export function installGracefulShutdown(
  stop: () => Promise<void>,
  options: ShutdownOptions = {},
): () => void {
  const deadlineMs = options.deadlineMs ?? 28_000;
  const handle = (signal: keyof typeof EXIT_CODES) => {
    remove();
    const started = Date.now();
    const exit = process.exit.bind(process);
    let finished = false;
    const stopped = stop()
      .catch((error: unknown) =>
        log.error({ event: 'server.stop_failed', error: errorFacts(error) }),
      )
      .finally(() => {
        finished = true;
        log.info({ event: 'server.stopped', signal, ms: Date.now() - started });
      });
    process.exit = ((code?: number | string | null) => {
      if (finished) exit(code);
      else void stopped.then(() => exit(code));
    }) as typeof process.exit;
    setTimeout(() => {
      log.error({ event: 'server.stop_timeout', signal, ms: Date.now() - started });
      exit(EXIT_CODES[signal]);
    }, deadlineMs);
    void stopped.then(() => {
      // Nobody else handles the signal (e.g. NEXT_MANUAL_SIG_HANDLE): exit now; otherwise give
      // the other handler (Next.js closing the HTTP server) until the deadline.
      if (process.listenerCount(signal) === 0) exit(EXIT_CODES[signal]);
      else
        setTimeout(
          () => exit(EXIT_CODES[signal]),
          Math.max(0, deadlineMs - (Date.now() - started)),
        );
    });
    log.info({ event: 'server.stopping', signal });
  };
  const onTerm = () => handle('SIGTERM');
  const onInt = () => handle('SIGINT');
  function remove() {
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
  }
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  return remove;
}
