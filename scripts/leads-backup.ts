/**
 * The `leads` CLI's backup commands (scripts/leads.ts registers them):
 *   backup [file]                       a consistent backup of the running site's database
 *   restore <file> [--replace] [--release] [--identity <file>]   replay one into an empty database
 *   held [release|drop] [ids...] [--all]  jobs a restore held: list, send once, or drop (audited)
 * The work is done by src/server/wiring/backup.ts; this file parses and prints.
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { openDatabase, type Database } from '@/server/platform/db/client';
import { CLI_ACTOR } from '@/server/platform/audit';
import { getSiteEnv as getEnv } from '@/server/wiring/env';
import {
  actOnHeld,
  backupSite,
  listHeldJobs,
  restoreSite,
  type HeldJob,
} from '@/server/wiring/backup';

/** A backup's default name: the time it is taken, in UTC, in the current folder. */
function defaultName(encrypted: boolean): string {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `nirmaya-backup-${stamp}.sql.gz${encrypted ? '.age' : ''}`;
}

/**
 * A test's pause: when `BACKUP_TEST_PAUSE_FILE` is set, the backup writes that file once half of
 * its own is written, then waits to be killed (tests prove no half file gets the final name).
 */
function testPause(): (() => Promise<void>) | undefined {
  const signal = process.env.BACKUP_TEST_PAUSE_FILE;
  if (!signal) return undefined;
  return async () => {
    await writeFile(signal, String(process.pid));
    await new Promise(() => undefined);
  };
}

/** One held job as a line: id, kind, its record (enquiry id), due time. */
const heldLine = (job: HeldJob) =>
  [job.id, job.kind, job.owner ?? '', job.dueAt.toISOString()].join('\t');

/**
 * Adds `backup`, `restore` and `held` to the CLI.
 * @param withDatabase the CLI's way to run a task on the site's database (through the running
 *   site's socket on PGlite), its key checked
 */
export function addBackupCommands(
  program: Command,
  withDatabase: (task: (database: Database) => Promise<void>) => Promise<void>,
): void {
  program
    .command('backup')
    .description(
      "a consistent backup of the site's database while it runs: plain SQL (pg_dump), gzip, encrypted to BACKUP_AGE_RECIPIENT when set, written atomically and owner-only; never the key",
    )
    .argument('[file]', 'where to write it (default nirmaya-backup-<UTC time>.sql.gz[.age])')
    .action((file: string | undefined) =>
      withDatabase(async (database) => {
        const env = getEnv();
        const target = file ?? defaultName(Boolean(env.BACKUP_AGE_RECIPIENT));
        const result = await backupSite(database, env, target, testPause());
        console.log(
          `Backup written to ${target}: ${result.bytes} bytes, taken at ${result.header.startedAt}, ` +
            `${result.header.migrations.count} migrations` +
            (env.BACKUP_AGE_RECIPIENT ? ', encrypted to BACKUP_AGE_RECIPIENT' : '') +
            ` (the dump took ${result.dumpMs} ms).`,
        );
      }),
    );

  program
    .command('restore')
    .description(
      'replay a backup into an empty database (DATABASE_URL, else PGlite in DATA_DIR: stop the site first), then migrate; jobs due or claimed when it was taken are held until released or dropped',
    )
    .argument('<file>', 'a file written by `leads backup`')
    .option('--replace', 'drop everything in a database that is not empty first')
    .option('--release', 'release the held jobs at once (a planned move: nothing ran since)')
    .option('--identity <file>', 'an age identity file, for an encrypted backup')
    .action(
      async (
        file: string,
        options: { replace?: boolean; release?: boolean; identity?: string },
      ) => {
        const env = getEnv();
        const identities = options.identity
          ? (await readFile(options.identity, 'utf8'))
              .split('\n')
              .map((line) => line.trim())
              .filter((line) => line.startsWith('AGE-SECRET-KEY-'))
          : [];
        // Its own open: never through a running site (PGlite's lock refuses while the site runs).
        const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
        try {
          const { header, held } = await restoreSite(database, env, CLI_ACTOR, {
            bytes: await readFile(file),
            identities,
            replace: options.replace,
            release: options.release,
          });
          console.log(
            `Restored the backup taken at ${header.startedAt} (${header.engine}) into ` +
              `${database.kind === 'pglite' ? env.DATA_DIR : 'DATABASE_URL'}, migrated.`,
          );
          if (options.release) console.log('Jobs due when it was taken were released.');
          for (const job of held) console.log(heldLine(job));
          if (held.length > 0)
            console.error(
              `${held.length} jobs were due or being sent when the backup was taken and may have ` +
                'been sent since: they are held. Send them with `leads held release <id…>` (or ' +
                '--all), or drop them with `leads held drop <id…>`.',
            );
        } finally {
          await database.close();
        }
      },
    );

  program
    .command('held')
    .description('jobs a restore held: list them, release them (sent once) or drop them; audited')
    .argument('[act]', 'release or drop (default: list)')
    .argument('[ids...]', 'the jobs (from the list)')
    .option('--all', 'every held job')
    .action((act: string | undefined, ids: string[], options: { all?: boolean }) =>
      withDatabase(async ({ db }) => {
        if (act === undefined || act === 'list') {
          const held = await listHeldJobs(db);
          for (const job of held) console.log(heldLine(job));
          console.error(`${held.length} held job${held.length === 1 ? '' : 's'}`);
          return;
        }
        if (act !== 'release' && act !== 'drop') throw new Error(`Unknown act ${act}.`);
        if (!options.all && ids.length === 0) throw new Error('Name the jobs, or give --all.');
        const done = await actOnHeld(db, CLI_ACTOR, act, options.all ? undefined : ids);
        console.log(
          act === 'release'
            ? `Released ${done.length} held jobs: the running site sends them.`
            : `Dropped ${done.length} held jobs: never sent.`,
        );
      }),
    );
}
