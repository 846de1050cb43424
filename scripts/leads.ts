/**
 * Operator CLI for stored enquiries: `npm run leads -- <command>`.
 *   list [--limit n]          newest enquiries with their delivery state per channel
 *   export --format csv       every enquiry as CSV on stdout (formula-injection safe)
 *   delete --email <address>  erase one person's enquiries and their notification jobs
 *   retry                     re-queue failed deliveries (e-mails and webhooks)
 *   purge                     delete enquiries older than LEADS_RETENTION_DAYS (default 365)
 * Uses the site's configuration (DATABASE_URL, or PGlite in DATA_DIR: through the running site's
 * Unix socket when it runs, since PGlite allows one process). Runs under tsx with the `react-server` condition, so the server modules'
 * `import 'server-only'` resolves to its empty server build.
 */
import { Command, Option } from 'commander';
import { openDatabase, type Database } from '@/server/db/client';
import { getEnv } from '@/server/env';
import {
  deleteLeadsByEmail,
  exportLeadsCsv,
  listLeads,
  purgeExpired,
  retryFailedNotifications,
} from '@/server/leads/operations';
import { describeDeliveries } from '@/server/leads/delivery-summary';

/**
 * Runs `task` on the site's database and closes it. With PGlite, a running site's socket in
 * DATA_DIR is used when it answers (the site keeps PGlite), else PGlite is opened here.
 */
async function withDatabase(task: (database: Database) => Promise<void>): Promise<void> {
  const env = getEnv();
  const database = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    preferRunningSite: true,
  });
  try {
    await database.migrate();
    await task(database);
  } finally {
    await database.close();
  }
}

const program = new Command('leads').description('Manage enquiries from the contact form.');

program
  .command('list')
  .description('list enquiries, newest first')
  .option('--limit <n>', 'how many', (value) => parseInt(value, 10), 50)
  .action((options: { limit: number }) =>
    withDatabase(async ({ db }) => {
      const rows = await listLeads(db, options.limit);
      for (const row of rows) {
        const delivery = describeDeliveries(row.deliveries);
        console.log(
          [
            row.reference,
            row.createdAt.toISOString(),
            `${row.firstName} ${row.lastName}`,
            row.email,
            row.organization,
            row.subject,
            delivery,
          ].join('\t'),
        );
      }
      console.error(`${rows.length} enquir${rows.length === 1 ? 'y' : 'ies'}`);
    }),
  );

program
  .command('export')
  .description('write every enquiry to stdout')
  .addOption(
    new Option('--format <format>', 'output format').choices(['csv']).makeOptionMandatory(),
  )
  .action(() =>
    withDatabase(async ({ db }) => {
      process.stdout.write(await exportLeadsCsv(db));
    }),
  );

program
  .command('delete')
  .description("erase a person's enquiries and their notification e-mails (right to erasure)")
  .requiredOption('--email <address>', 'the e-mail address they wrote from')
  .action((options: { email: string }) =>
    withDatabase(async ({ db }) => {
      const removed = await deleteLeadsByEmail(db, options.email);
      console.log(`Deleted ${removed.leads} enquiries and ${removed.jobs} notification jobs.`);
    }),
  );

program
  .command('retry')
  .description('re-queue failed deliveries, e-mails and webhooks (sent by the running site)')
  .action(() =>
    withDatabase(async ({ db }) => {
      console.log(`Re-queued ${await retryFailedNotifications(db)} failed notifications.`);
    }),
  );

program
  .command('purge')
  .description('delete enquiries older than LEADS_RETENTION_DAYS')
  .action(() =>
    withDatabase(async ({ db }) => {
      const days = getEnv().LEADS_RETENTION_DAYS;
      console.log(`Deleted ${await purgeExpired(db, days)} enquiries older than ${days} days.`);
    }),
  );

program.parseAsync().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
