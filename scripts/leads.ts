/**
 * Operator CLI for stored enquiries: `npm run leads -- <command>`.
 *   list [--limit n]          newest enquiries with their delivery state per channel (`suppressed`
 *                             last for an address the site must not write to)
 *   export --format csv       every enquiry as CSV on stdout (formula-injection safe)
 *                             (list and export leave quarantined spam out unless --include-spam)
 *   spam [--message]          quarantined enquiries: reference, time, reason (body on request)
 *   release <reference>       release a quarantined enquiry: stored as a lead, e-mailed once
 *   erase <address>           erase everything held for one person (DPDP Act): a live demo is
 *                             cancelled first, erasure waits until its cancellations have been
 *                             sent (by the running site), receivers get lead.erased, the address
 *                             is suppressed; recorded as a privacy request (tombstone) and audited
 *   retry [reference]         re-queue failed deliveries (e-mails and webhooks), all or one enquiry's
 *   ack <reference>           acknowledge the failed deliveries of an enquiry or privacy request
 *   close-abusive <PR-…...>   close open privacy requests judged abusive (tombstones, audited)
 *   purge                     delete enquiries older than LEADS_RETENTION_DAYS (default 365) and
 *                             spam never released older than SPAM_RETENTION_DAYS (default 30)
 *   health                    readiness details as /api/health gives them to the METRICS_TOKEN
 *                             bearer (JSON): status and reasons, delivery backlog, quarantined
 *                             enquiries, open privacy requests; exit code 1 when degraded
 *   demos                     upcoming demos: reference, time (DEMO_TIMEZONE and UTC), host, visitor
 *   cancel <reference>        cancel that enquiry's upcoming demo as the visitor would (e-mails, webhooks)
 *   operators list|add|role|remove   who may sign in to the console (/admin), and their role
 *   backup [file], restore <file>, held   backups of the database (scripts/leads-backup.ts)
 * Acts on enquiries, demos and operators are written to the console's audit log as `cli`.
 * Uses the site's configuration (DATABASE_URL, or PGlite in DATA_DIR: through the running site's
 * Unix socket when it runs, since PGlite allows one process). Runs under tsx with the
 * `react-server` condition, so the server modules'
 * `import 'server-only'` resolves to its empty server build.
 */
import { Command, Option } from 'commander';
import { openDatabase, type Database } from '@/server/platform/db/client';
import { formatDay, formatTime } from '@/lib/demo/display';
import { isNameField, singleLineFields, visitorName } from '@/lib/contact-fields';
import { listUpcomingDemos, bookingSettings } from '@/server/features/demos';
import { CLI_ACTOR } from '@/server/platform/audit';
import { closeAbusiveRequests } from '@/server/features/privacy';
import {
  cancelDemoAs,
  exportEnquiries,
  releaseEnquiries,
  addOperator,
  changeOperatorRole,
  listOperators,
  removeOperator,
} from '@/server/features/console';
import { acknowledgeDeliveries, retryDeliveries } from '@/server/wiring/delivery-retry';
import type { OperatorRole } from '@/server/features/console';
import { getSiteEnv as getEnv } from '@/server/wiring/env';
import { listLeads, listSpam, describeDeliveries } from '@/server/features/contact';
import { purgeExpired } from '@/server/wiring/personal-data';
import { eraseAs } from '@/server/wiring/erasure';
import { assessReadiness, healthDetails } from '@/server/wiring/readiness';
import { releaseTargets } from '@/server/wiring/release';
import { installFunnelCounting } from '@/server/wiring/funnel';
import { verifiedSiteSecret } from '@/server/platform/security/key-fingerprint';
import { addBackupCommands } from './leads-backup';

/**
 * Runs `task` on the site's database and closes it. With PGlite, a running site's socket in
 * DATA_DIR is used when it answers (the site keeps PGlite), else PGlite is opened here. Refuses
 * (SiteKeyMismatchError) a key that is not the database's.
 */
async function withDatabase(task: (database: Database) => Promise<void>): Promise<void> {
  const env = getEnv();
  // A demo cancelled here must leave the funnel's pending demos as one cancelled on the site does.
  installFunnelCounting(env);
  const database = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    preferRunningSite: true,
  });
  try {
    await database.migrate();
    // Acting under another key than the database's would break every hash and link: refuse.
    await verifiedSiteSecret(database.db, env.FORM_SECRET);
    await task(database);
  } finally {
    await database.close();
  }
}

/**
 * The contact fields `list` prints after the visitor's name, in form order: the one-line fields of
 * src/lib/contact-fields.ts other than the name's (the message never fits a line).
 */
const listedFields = singleLineFields.filter((field) => !isNameField(field));

const program = new Command('leads').description('Manage enquiries from the contact form.');

program
  .command('list')
  .description('list enquiries, newest first')
  .option('--limit <n>', 'how many', (value) => parseInt(value, 10), 50)
  .option('--include-spam', 'also quarantined enquiries (marked "spam")')
  .action((options: { limit: number; includeSpam?: boolean }) =>
    withDatabase(async ({ db }) => {
      const rows = await listLeads(db, { limit: options.limit, includeSpam: options.includeSpam });
      for (const row of rows) {
        const delivery = row.verdict === 'spam' ? 'spam' : describeDeliveries(row.deliveries);
        // An enquiry from a suppressed address: the site sends it nothing, nobody writes to it.
        const mark = row.suppressed ? ['suppressed'] : [];
        console.log(
          [
            row.reference,
            row.createdAt.toISOString(),
            visitorName(row),
            ...listedFields.map((field) => row[field]),
            delivery,
            ...mark,
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
  .option('--include-spam', 'also quarantined enquiries (with a Verdict column)')
  .action((options: { includeSpam?: boolean }) =>
    withDatabase(async ({ db }) => {
      process.stdout.write(
        await exportEnquiries(
          db,
          CLI_ACTOR,
          { includeSpam: options.includeSpam },
          options.includeSpam ? 'all, spam included' : 'all',
        ),
      );
    }),
  );

program
  .command('spam')
  .description(
    'list quarantined enquiries (reference, time, reason, e-mail, subject), newest first',
  )
  .option('--message', 'also print each message body')
  .action((options: { message?: boolean }) =>
    withDatabase(async ({ db }) => {
      const rows = await listSpam(db, { withMessage: options.message });
      for (const row of rows) {
        console.log(
          [
            row.reference,
            row.createdAt.toISOString(),
            row.reason ?? '',
            row.email,
            row.subject,
          ].join('\t'),
        );
        if (row.message !== undefined) console.log(`  ${row.message.replaceAll('\n', '\n  ')}`);
      }
      console.error(`${rows.length} quarantined enquir${rows.length === 1 ? 'y' : 'ies'}`);
    }),
  );

program
  .command('release')
  .description(
    'release a quarantined enquiry: stored as a lead and e-mailed once by the running site',
  )
  .argument('<reference>', 'its reference, e.g. NH-7K3P9QXD2M')
  .action((reference: string) =>
    withDatabase(async ({ db }) => {
      const results = await releaseEnquiries(db, CLI_ACTOR, [reference], releaseTargets(getEnv()));
      const result = [...results.values()][0];
      if (result === 'not-found') throw new Error(`No enquiry ${reference}.`);
      console.log(
        result === 'released'
          ? `Released ${reference}: its notification is queued.`
          : `${reference} is not in quarantine (already released or never spam); nothing queued.`,
      );
    }),
  );

program
  .command('erase')
  .description(
    "erase everything held for a person's address (DPDP Act right to erasure): a live demo is cancelled first (the running site sends the cancellations), then their enquiries, demos and jobs are erased, receivers get lead.erased, and the address is suppressed",
  )
  .argument('<email>', 'the e-mail address they wrote from (any case)')
  .action((email: string) =>
    withDatabase(async ({ db }) => {
      const result = await eraseAs(db, CLI_ACTOR, email);
      if (result.outcome === 'cancellations-unsent') {
        console.error(
          `Cancelled ${result.cancelled} demos; ${result.unsent} of their cancellations have not ` +
            'been sent yet (the running site sends them). Nothing is erased: run this again once ' +
            'they have left.',
        );
        process.exitCode = 1;
        return;
      }
      console.log(
        `Erased ${result.enquiries} enquiries and ${result.demos} demos` +
          (result.cancelled ? ` (${result.cancelled} cancelled first)` : '') +
          `: request ${result.reference}, the address is suppressed.`,
      );
    }),
  );

program
  .command('retry')
  .description('re-queue failed deliveries, e-mails and webhooks (sent by the running site)')
  .argument('[reference]', "only this enquiry's (e.g. NH-7K3P9QXD2M)")
  .action((reference: string | undefined) =>
    withDatabase(async ({ db }) => {
      const count = await retryDeliveries(db, CLI_ACTOR, reference);
      if (count === null) throw new Error(`No enquiry ${reference}.`);
      console.log(`Re-queued ${count} failed notifications.`);
    }),
  );

program
  .command('ack')
  .description(
    'acknowledge the failed deliveries of an enquiry or a privacy request: they stay failed but no longer ring the delivery alarm',
  )
  .argument('<reference>', 'the enquiry (e.g. NH-7K3P9QXD2M) or privacy request (PR-…)')
  .action((reference: string) =>
    withDatabase(async ({ db }) => {
      const count = await acknowledgeDeliveries(db, CLI_ACTOR, reference);
      if (count === null) throw new Error(`No enquiry or privacy request ${reference}.`);
      console.log(`Acknowledged ${count} failed notifications of ${reference.toUpperCase()}.`);
    }),
  );

program
  .command('close-abusive')
  .description(
    'close open privacy requests judged abusive (e.g. a flood of grievances): each becomes a tombstone without an answer, its address and details erased, one audit row each',
  )
  .argument('<references...>', 'the privacy requests (PR-…)')
  .action((references: string[]) =>
    withDatabase(async ({ db }) => {
      const closed = await closeAbusiveRequests(db, CLI_ACTOR, references);
      console.log(`Closed ${closed.length} requests as abusive: ${closed.join(', ') || 'none'}.`);
    }),
  );

program
  .command('purge')
  .description(
    'delete enquiries older than LEADS_RETENTION_DAYS, spam older than SPAM_RETENTION_DAYS',
  )
  .action(() =>
    withDatabase(async ({ db }) => {
      const { LEADS_RETENTION_DAYS: leadsDays, SPAM_RETENTION_DAYS: spamDays } = getEnv();
      const removed = await purgeExpired(db, { leadsDays, spamDays });
      console.log(
        `Deleted ${removed} enquiries older than ${leadsDays} days (spam: ${spamDays} days).`,
      );
    }),
  );

program
  .command('health')
  .description(
    'readiness details (JSON): status, delivery backlog, quarantined enquiries, privacy requests; exit code 1 when degraded',
  )
  .action(() =>
    withDatabase(async ({ db }) => {
      const details = healthDetails(await assessReadiness(db, getEnv()));
      console.log(JSON.stringify(details, null, 2));
      if (details.status !== 'ok') process.exitCode = 1;
    }),
  );

/** A time in `DEMO_TIMEZONE` with its zone named, then in UTC: `Friday, 6 March 2026, 10:00 IST`. */
function demoTime(at: Date): string {
  const zone = getEnv().DEMO_TIMEZONE;
  return `${formatDay(at.getTime(), zone)}, ${formatTime(at.getTime(), zone)}`;
}

/** A host as `Name <e-mail>` (the e-mail alone when it is no longer in DEMO_HOSTS). */
function hostOf(email: string): string {
  const host = getEnv().DEMO_HOSTS.find(
    (candidate) => candidate.email.toLowerCase() === email.toLowerCase(),
  );
  return host ? `${host.name} <${email}>` : email;
}

program
  .command('demos')
  .description(
    'list upcoming demos: reference, time in DEMO_TIMEZONE and in UTC, host, visitor, e-mail, organisation',
  )
  .action(() =>
    withDatabase(async ({ db }) => {
      const demos = await listUpcomingDemos(db);
      for (const { reference, booking, visitor } of demos) {
        console.log(
          [
            reference,
            demoTime(booking.startsAt),
            booking.startsAt.toISOString(),
            hostOf(booking.hostEmail),
            visitorName(visitor),
            visitor.email,
            visitor.organization,
          ].join('\t'),
        );
      }
      console.error(`${demos.length} upcoming demo${demos.length === 1 ? '' : 's'}`);
    }),
  );

program
  .command('cancel')
  .description(
    "cancel an enquiry's upcoming demo as the visitor would: the running site e-mails the visitor and the host a cancellation (and sends the webhook event)",
  )
  .argument('<reference>', 'the enquiry reference, e.g. NH-7K3P9QXD2M')
  .action((reference: string) =>
    withDatabase(async ({ db }) => {
      const result = await cancelDemoAs(db, CLI_ACTOR, bookingSettings(getEnv()), reference);
      if (result.outcome === 'not-found') throw new Error(`No enquiry ${reference}.`);
      if (result.outcome === 'no-live-demo')
        throw new Error(`${reference} has no upcoming demo to cancel.`);
      const { booking, visitorEmail } = result;
      const ref = reference.trim().toUpperCase();
      const events = getEnv().WEBHOOK_URLS.length;
      console.log(
        `Cancelled the demo of ${ref} on ${demoTime(booking.startsAt)} (${booking.startsAt.toISOString()}) with ${hostOf(booking.hostEmail)}. ` +
          `Cancellations to ${visitorEmail} and ${booking.hostEmail} are queued` +
          (events ? `, and the demo.cancelled event to ${events} webhook endpoint(s)` : '') +
          '; the running site sends them.',
      );
    }),
  );

const operatorsCommand = program
  .command('operators')
  .description('who may sign in to the sales console (/admin) by e-mailed link, and their role');

const roleOption = () =>
  new Option('--role <role>', 'sales: enquiries and demos; admin: also operators and audit log')
    .choices(['sales', 'admin'])
    .default('sales');

/** Prints what an operator change did, failing (exit 1) when it changed nothing it should have. */
function reportChange(email: string, change: string): void {
  if (['invalid', 'not-found', 'last-admin'].includes(change))
    throw new Error(
      change === 'last-admin'
        ? 'The last admin cannot be removed or lowered to sales.'
        : change === 'not-found'
          ? `No operator ${email}.`
          : `Not an e-mail address or role: ${email}.`,
    );
  console.log(`${email.trim().toLowerCase()}: ${change}`);
}

operatorsCommand
  .command('list')
  .description('list operators: e-mail, role, added')
  .action(() =>
    withDatabase(async ({ db }) => {
      for (const operator of await listOperators(db))
        console.log([operator.email, operator.role, operator.createdAt.toISOString()].join('\t'));
    }),
  );

operatorsCommand
  .command('add')
  .description('add an operator (or set the role of an existing one)')
  .argument('<email>', 'their work e-mail address')
  .addOption(roleOption())
  .action((email: string, options: { role: OperatorRole }) =>
    withDatabase(async ({ db }) =>
      reportChange(email, await addOperator(db, CLI_ACTOR, email, options.role)),
    ),
  );

operatorsCommand
  .command('role')
  .description("change an operator's role")
  .argument('<email>')
  .addOption(roleOption().makeOptionMandatory())
  .action((email: string, options: { role: OperatorRole }) =>
    withDatabase(async ({ db }) =>
      reportChange(email, await changeOperatorRole(db, CLI_ACTOR, email, options.role)),
    ),
  );

operatorsCommand
  .command('remove')
  .description('remove an operator: their sessions end at once')
  .argument('<email>')
  .action((email: string) =>
    withDatabase(async ({ db }) => reportChange(email, await removeOperator(db, CLI_ACTOR, email))),
  );

addBackupCommands(program, withDatabase);

program.parseAsync().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
