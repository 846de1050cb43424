import 'server-only';
import { ensureAdmins, scheduleSpamDigest } from '../features/console';
import { retryWithBackoff } from '@/lib/retry';
import { closeDatabase, getDatabase, type Database } from '../platform/db';
import { startDeliveryMonitor, type DeliveryMonitor } from './delivery-monitor';
import { startFeedRefresher, stopFeedRefresher } from '../features/demos';
import { getSiteEnv, type SiteEnv } from './env';
import { errorFacts, log } from '../platform/log';
import { purgeExpired } from './personal-data';
import { forgetSentLinks, forgetSentReplies } from '../features/privacy';
import { jobHandlers } from './jobs';
import { startQueueWorker, stopQueueWorker } from '../delivery/queue/runtime';
import { installGracefulShutdown } from '../platform/shutdown';
import { existingCollector, serveBeaconsBeforeNext } from '../features/sources';
import { canonicalPaths } from '@/content/routes';
import { installFunnelCounting } from './funnel';
import { refuseAnotherKey } from './key-check';

/** Waits between attempts to reach the database at start: 1 s doubling, at most 30 s (ms). */
const CONNECT_RETRY = { baseMs: 1_000, maxMs: 30_000 };
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * Runs once when the server starts (from `instrumentation.ts`): validates the environment, serves
 * the page-view beacon ahead of Next.js (serveBeaconsBeforeNext), installs the graceful shutdown, opens and migrates the database (PGlite's first open takes a second or
 * two, better here than on the first enquiry), then starts the queue worker, the delivery monitor
 * and the purge of enquiries past LEADS_RETENTION_DAYS and of sent privacy replies (now and daily). The demo hosts' busy feeds
 * are fetched once the database's first attempt has settled, database or not, so that their fetch
 * timeout is not spent on this process's own start (src/server/features/demos/feeds.ts).
 * A database that is down is retried in the background with capped backoff (1 s doubling to 30 s,
 * each failure logged as `database.unavailable`) and the rest starts once it answers, without a
 * restart; meanwhile pages serve, the form says it could not save and
 * `/api/health` answers 503.
 * @throws when the environment is invalid (the server should not run misconfigured).
 */
export async function startServer(): Promise<void> {
  const env = getSiteEnv();
  serveBeaconsBeforeNext(new Set(canonicalPaths));
  installFunnelCounting(env);
  const connecting = new AbortController();
  const started: {
    monitor?: DeliveryMonitor;
    purge?: NodeJS.Timeout;
    digest?: NodeJS.Timeout;
  } = {};

  installGracefulShutdown(async () => {
    connecting.abort();
    started.monitor?.stop();
    clearInterval(started.purge);
    clearInterval(started.digest);
    stopFeedRefresher();
    // The page views held in memory are written before the database closes.
    await existingCollector()?.flush();
    await stopQueueWorker();
    await closeDatabase();
  });

  const ready = retryWithBackoff(getDatabase, {
    ...CONNECT_RETRY,
    signal: connecting.signal,
    onFailure: (error, attempt, delayMs) =>
      log.error(
        { event: 'database.unavailable', attempt, retryInMs: delayMs, error: errorFacts(error) },
        'Database unavailable at start, retrying',
      ),
  }).then(async (database) => {
    if (!database || connecting.signal.aborted) return;
    const refused = await refuseAnotherKey(database.db, env.FORM_SECRET, async () => {
      await closeDatabase().catch(() => undefined);
      process.exit(1);
    });
    if (refused) return;
    Object.assign(started, startDatabaseWork(database, env));
  });
  // The first attempt is awaited (the server answers with the database warm); retries are not.
  await Promise.race([ready, getDatabase().catch(() => undefined)]);
  // The feeds' first fetch starts only now, database or not: started beside the database's first
  // open (PGlite's init and migrations take seconds of this process's CPU), a slow start used up
  // a feed's fetch timeout and left its host offering nothing until the next refresh.
  if (!connecting.signal.aborted) startFeedRefresher(env);
}

/**
 * Starts what needs the database: the queue worker, the delivery monitor, the daily purge and the
 * daily spam digest.
 */
function startDatabaseWork(
  database: Database,
  env: SiteEnv,
): { monitor: DeliveryMonitor; purge: NodeJS.Timeout; digest: NodeJS.Timeout } {
  log.info({ event: 'database.ready', kind: database.kind });
  // ADMIN_EMAILS are admins of the console from the start (no sign-up exists).
  ensureAdmins(database.db, env.ADMIN_EMAILS).catch((error: unknown) =>
    log.error({ event: 'console.admins_failed', error: errorFacts(error) }),
  );
  startQueueWorker(database.db, jobHandlers(database, env), {
    leaseMs: env.OUTBOX_LEASE_SECONDS * 1_000,
    // PGlite is one process's: claims left by a crashed run of it are handed back at once.
    sole: database.kind === 'pglite',
  });
  const monitor = startDeliveryMonitor(database.db, {
    intervalMs: env.DELIVERY_CHECK_SECONDS * 1_000,
    alertSeconds: env.DELIVERY_ALERT_MINUTES * 60,
    privacyAlertDays: env.PRIVACY_DUE_ALERT_DAYS,
  });
  const purge = () => {
    purgeExpired(database.db, env.LEADS_RETENTION_DAYS)
      .then((count) => log.info({ event: 'leads.purged', count }))
      .catch((error: unknown) =>
        log.error({ event: 'leads.purge_failed', error: errorFacts(error) }),
      );
    forgetSentReplies(database.db)
      .then((count) => log.info({ event: 'privacy.replies_forgotten', count }))
      .catch((error: unknown) =>
        log.error({ event: 'privacy.forget_failed', error: errorFacts(error) }),
      );
    forgetSentLinks(database.db)
      .then((count) => log.info({ event: 'privacy.links_forgotten', count }))
      .catch((error: unknown) =>
        log.error({ event: 'privacy.forget_failed', error: errorFacts(error) }),
      );
  };
  // The daily spam digest: each hourly run makes sure the next one is queued (once per day).
  const digest = () => {
    if (env.SPAM_DIGEST_HOUR === null || !env.SMTP_URL) return;
    scheduleSpamDigest(database.db, env.SPAM_DIGEST_HOUR).catch((error: unknown) =>
      log.error({ event: 'console.digest_schedule_failed', error: errorFacts(error) }),
    );
  };
  void purge();
  digest();
  const timer = setInterval(purge, DAY_MS);
  timer.unref();
  const digestTimer = setInterval(digest, HOUR_MS);
  digestTimer.unref();
  return { monitor, purge: timer, digest: digestTimer };
}
