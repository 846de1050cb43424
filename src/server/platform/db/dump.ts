import 'server-only';
import { execFile } from 'node:child_process';
import { chmod, readdir, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import { errorFacts, log } from '../log';
import { bridgeDirectory, simpleQuery } from './pglite-bridge';

/**
 * What every dump is asked for: plain SQL as pg_dump writes it, without owners or grants (the
 * restoring role owns everything), and rows as multi-row INSERTs, so the whole script replays as
 * one multi-statement query on PGlite and PostgreSQL alike (COPY's inline data needs psql).
 */
const DUMP_ARGS = ['--no-owner', '--no-privileges', '--rows-per-insert=1000'];

/**
 * A line of stored text that starts with psql's `\restrict` or `\unrestrict`: pglite-tools 0.4.8
 * removes every such line from its dump, also inside a value (it means to remove pg_dump's own).
 */
const DROPPED_LINE = /[\n\r]\\(?:un)?restrict\b/gi;

/** The socket in `bridgeDirectory(dataDir)` on which a running site dumps its PGlite for the CLI. */
export const dumpSocket = (dataDir: string) => path.join(bridgeDirectory(dataDir), 'dump');

/**
 * Dumps a PGlite database with pglite-tools' pg_dump (PGlite is PostgreSQL 18; a Debian pg_dump
 * older than the server refuses it). PGlite has one session, so the dump holds the database for
 * its whole run: the process's own queries and transactions wait until it ends (never refused),
 * which makes the dump consistent. It starts only between two transactions of the process.
 * pg_dump leaves its read-only transaction open and its session settings changed: both are undone
 * before the database is handed back. Stored text lines that pglite-tools drops from the script
 * (DROPPED_LINE) are counted in the rows pg_dump reads and logged (`database.dump_lines_dropped`).
 * @returns the SQL script
 * @throws when pg_dump fails (its message)
 */
export async function dumpPglite(pglite: PGlite): Promise<string> {
  const { pgDump } = await import('@electric-sql/pglite-tools/pg_dump');
  const session = await pglite.query<{ name: string; setting: string }>(
    "SELECT name, setting FROM pg_settings WHERE source = 'session'",
  );
  const run = (text: string) => pglite.execProtocolRaw(simpleQuery(text));
  const restoreSession = async () => {
    if (pglite.isInTransaction()) await run('ROLLBACK');
    await run('RESET ALL');
    for (const { name, setting } of session.rows)
      await run(
        `SELECT pg_catalog.set_config('${name}', '${setting.replaceAll("'", "''")}', false)`,
      );
  };
  let dropped = 0;
  let carried = '';
  for (;;) {
    const dumped = await pglite.runExclusive(async () => {
      if (pglite.isInTransaction()) return undefined; // a transaction of the process: wait for it
      // pg_dump's own calls bypass PGlite's lock, which this holds: its query and exec go
      // straight to the session too.
      const tool = {
        execProtocolRawStream: (
          message: Uint8Array,
          options: Parameters<PGlite['execProtocolRawStream']>[1],
        ) =>
          pglite.execProtocolRawStream(message, {
            ...options,
            onRawData: (data: Uint8Array) => {
              // A line split between two chunks is found with the previous chunk's end, once.
              const text = carried + Buffer.from(data).toString('latin1');
              for (const match of text.matchAll(DROPPED_LINE))
                if (match.index + match[0].length > carried.length) dropped += 1;
              carried = text.slice(-12);
              options.onRawData(data);
            },
          }),
        query: async () => ({ rows: [{ search_path: 'public' }] }),
        exec: async (text: string) => {
          if (pglite.isInTransaction()) await run('ROLLBACK');
          await run(text);
          return [];
        },
      } as unknown as PGlite;
      try {
        return await (await pgDump({ pg: tool, args: DUMP_ARGS })).text();
      } finally {
        await restoreSession();
      }
    });
    if (dumped === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      continue;
    }
    if (dropped > 0)
      log.warn(
        { event: 'database.dump_lines_dropped', lines: dropped },
        'Lines of stored text starting with \\restrict or \\unrestrict are missing from this dump (pglite-tools removes them).',
      );
    return dumped;
  }
}

/**
 * The pg_dump to use against a PostgreSQL server: `PG_DUMP` when set, else the newest of Debian's
 * `/usr/lib/postgresql/<major>/bin/pg_dump`, else `pg_dump` on the PATH. pg_dump refuses a server
 * newer than itself, saying so.
 */
async function pgDumpProgram(): Promise<string> {
  if (process.env.PG_DUMP) return process.env.PG_DUMP;
  const majors = await readdir('/usr/lib/postgresql').catch(() => [] as string[]);
  const newest = majors.filter((name) => /^\d+$/.test(name)).sort((a, b) => +b - +a)[0];
  return newest ? `/usr/lib/postgresql/${newest}/bin/pg_dump` : 'pg_dump';
}

/**
 * Dumps the PostgreSQL database at `url` with pg_dump, which takes a consistent snapshot while the
 * site keeps writing.
 * @returns the SQL script
 * @throws when pg_dump is missing or fails (its message)
 */
export async function dumpPostgres(url: string): Promise<string> {
  const program = await pgDumpProgram();
  const { stdout } = await promisify(execFile)(program, [...DUMP_ARGS, `--dbname=${url}`], {
    maxBuffer: 4 * 1024 ** 3,
    encoding: 'utf8',
  }).catch((error: NodeJS.ErrnoException & { stderr?: string }) => {
    throw new Error(
      error.code === 'ENOENT'
        ? `pg_dump was not found (${program}): install PostgreSQL's client tools or set PG_DUMP.`
        : `pg_dump failed: ${error.stderr?.trim() || error.message}`,
    );
  });
  return stdout;
}

/**
 * Serves dumps of the process's PGlite (dumpPglite) on `dumpSocket(dataDir)`, for the `leads`
 * CLI while the site holds the database. A client connects and sends `dump\n`; it gets `ok\n` and
 * the script, or `error <message>\n`. The socket's folder is the owner's alone (0700), the socket
 * 0600; a stale socket file (a crashed run) is replaced. Call after startPgliteBridge (it makes the
 * folder) and only while holding the data directory's lock.
 * @returns a function that stops serving and removes the socket
 * @throws when the socket cannot be created
 */
export async function serveDumps(pglite: PGlite, dataDir: string): Promise<() => Promise<void>> {
  const socketPath = dumpSocket(dataDir);
  await rm(socketPath, { force: true });
  const server: Server = createServer((socket) => {
    socket.once('data', (request) => {
      if (request.toString() !== 'dump\n') return void socket.destroy();
      const started = Date.now();
      dumpPglite(pglite).then(
        (script) => {
          log.info({ event: 'database.dumped', ms: Date.now() - started, bytes: script.length });
          socket.end(`ok\n${script}`);
        },
        (error: unknown) => {
          log.error({ event: 'database.dump_failed', error: errorFacts(error) });
          socket.end(`error ${(error as Error).message.replaceAll('\n', ' ')}\n`);
        },
      );
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  await chmod(socketPath, 0o600);
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(socketPath, { force: true });
  };
}

/**
 * Asks the site running on `dataDir` for a dump of its PGlite (serveDumps).
 * @returns the SQL script
 * @throws when the site does not answer or its dump fails
 */
export function requestSiteDump(dataDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = createConnection(dumpSocket(dataDir), () => socket.write('dump\n'));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
          ? new Error('The running site serves no dumps: restart it with this release.', {
              cause: error,
            })
          : error,
      ),
    );
    socket.on('end', () => {
      const answer = Buffer.concat(chunks).toString('utf8');
      if (answer.startsWith('ok\n')) resolve(answer.slice(3));
      else
        reject(
          new Error(
            `The running site could not dump its database: ${answer.slice(6).trim() || 'no answer'}`,
          ),
        );
    });
  });
}
