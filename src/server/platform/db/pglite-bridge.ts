import 'server-only';
import { chmod, mkdir, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { errorFacts, log } from '../log';

/**
 * The socket file's name: what libpq and node-postgres look for in a directory given as `host`
 * (`.s.PGSQL.<port>`, port 5432), so `pg` reaches it with `{ host: directory }`.
 */
export const BRIDGE_SOCKET_NAME = '.s.PGSQL.5432';

/** The folder in `DATA_DIR` holding the socket, mode 0700 (owner only). */
export const bridgeDirectory = (dataDir: string) => path.join(path.resolve(dataDir), 'socket');

/** How long a client may keep a transaction open between two round trips before it is rolled back (ms). */
const IDLE_IN_TRANSACTION_MS = 10_000;
/** Pause before trying again while the site itself is inside a transaction (ms). */
const BUSY_RETRY_MS = 5;

const SSL_REQUEST = 80_877_103;
const GSSENC_REQUEST = 80_877_104;
const CANCEL_REQUEST = 80_877_102;
/** A simple-protocol Query message running `text` (one or several statements). */
export function simpleQuery(text: string): Uint8Array {
  const body = Buffer.from(`${text}\0`);
  const message = Buffer.alloc(5 + body.length);
  message.write('Q', 0);
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return new Uint8Array(message);
}

const ROLLBACK = simpleQuery('ROLLBACK');

/** A running bridge: `close()` stops listening, drops clients (rolling back their transaction) and removes the socket. */
export type PgliteBridge = { socketPath: string; close(): Promise<void> };

/**
 * Serves the process's PGlite to local clients (the `leads` CLI, through `pg`) on a Unix socket in
 * `bridgeDirectory(dataDir)`, so PGlite stays in one process while the site runs.
 * Not reachable from the network: a Unix socket in a 0700 folder, the socket itself 0600.
 *
 * PGlite has one backend, so clients must never interleave with each other or with the site:
 * a client's messages are run in whole round trips (up to Sync or a simple Query) under PGlite's
 * query lock; a round trip is only started when no transaction is open (a transaction of the site
 * keeps it waiting), and a client that opens a transaction keeps the lock until it ends it, so
 * the site's queries wait meanwhile. A client idle inside a transaction for 10 s, or disconnecting,
 * is rolled back. (`@electric-sql/pglite-socket` runs single messages under the lock, which lets a
 * client's Parse/Bind/Execute interleave with the site's queries, and pins an exact PGlite version.)
 * Call only while holding the data directory's lock (a stale socket file is replaced).
 * @throws when the socket cannot be created.
 */
export async function startPgliteBridge(pglite: PGlite, dataDir: string): Promise<PgliteBridge> {
  const directory = bridgeDirectory(dataDir);
  const socketPath = path.join(directory, BRIDGE_SOCKET_NAME);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await chmod(directory, 0o700);
  await rm(socketPath, { force: true });
  const sessions = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sessions.add(socket);
    socket.once('close', () => sessions.delete(socket));
    serveClient(pglite, socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await chmod(socketPath, 0o600);
  server.on('error', (error) =>
    log.error({ event: 'database.bridge_error', error: errorFacts(error) }),
  );
  return {
    socketPath,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sessions) socket.destroy();
      await closed;
      await rm(socketPath, { force: true });
    },
  };
}

/** Splits a client's byte stream into round trips and runs them one after another. */
function serveClient(pglite: PGlite, socket: Socket): void {
  let buffer = Buffer.alloc(0);
  let started = false;
  let pending: Buffer[] = [];
  const trips: Buffer[] = [];
  let wake: (() => void) | undefined;
  let ended = false;

  const nextTrip = (timeoutMs: number) =>
    new Promise<Buffer | undefined>((resolve) => {
      const take = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve(ended ? undefined : trips.shift());
      };
      const timer = setTimeout(() => {
        ended = true;
        take();
      }, timeoutMs);
      if (trips.length > 0 || ended) take();
      else wake = take;
    });

  const send = (data: Uint8Array) => {
    if (data.length > 0 && socket.writable) socket.write(data);
  };

  /** Runs round trips while this client has any, holding PGlite while its transaction is open. */
  const run = async (): Promise<void> => {
    for (;;) {
      const trip = await nextTrip(2_147_483_647);
      if (!trip) return;
      const done = await pglite.runExclusive(async () => {
        if (pglite.isInTransaction()) return false; // the site is inside a transaction: wait
        await pglite.execProtocolRawStream(new Uint8Array(trip), { onRawData: send });
        while (pglite.isInTransaction()) {
          const next = await nextTrip(IDLE_IN_TRANSACTION_MS);
          if (!next) {
            await pglite.execProtocolRaw(ROLLBACK);
            socket.destroy();
            return true;
          }
          await pglite.execProtocolRawStream(new Uint8Array(next), { onRawData: send });
        }
        return true;
      });
      if (!done) {
        trips.unshift(trip);
        await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
      }
    }
  };

  const queue = (trip: Buffer) => {
    trips.push(trip);
    wake?.();
  };

  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (!started) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        const code = buffer.readInt32BE(4);
        const message = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) socket.write('N');
        else if (code === CANCEL_REQUEST) socket.destroy();
        else {
          started = true;
          queue(Buffer.from(message));
        }
        continue;
      }
      if (buffer.length < 5) return;
      const length = 1 + buffer.readInt32BE(1);
      if (buffer.length < length) return;
      const type = String.fromCharCode(buffer[0]!);
      const message = buffer.subarray(0, length);
      buffer = buffer.subarray(length);
      if (type === 'X') {
        socket.end();
        return;
      }
      pending.push(message);
      if (type === 'S' || type === 'Q') {
        queue(Buffer.concat(pending));
        pending = [];
      }
    }
  });
  const finish = () => {
    ended = true;
    wake?.();
  };
  socket.on('close', finish);
  socket.on('error', finish);
  run().catch((error: unknown) => {
    log.error({ event: 'database.bridge_client_error', error: errorFacts(error) });
    socket.destroy();
  });
}
