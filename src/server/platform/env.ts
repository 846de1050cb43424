import 'server-only';
import { z } from 'zod';
import { DEFAULT_PRIVACY_DUE_ALERT_DAYS } from '@/lib/privacy-alarm';
import { isSecureSiteUrl } from '@/lib/seo/site-url';
import { optional, positiveInt, positiveNumber } from './env-values';
import { trustProxySchema } from '../../lib/http/trust-proxy';

/** Loopback hosts, the only ones a webhook may reach over plain http (for tests). */
const loopback = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * `WEBHOOK_URLS`: comma-separated endpoint URLs, https only (http to a loopback host),
 * without credentials; duplicates dropped. Unset: no webhooks.
 */
const webhookUrls = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? [
          ...new Set(
            value
              .split(',')
              .map((url) => url.trim())
              .filter(Boolean),
          ),
        ]
      : [],
  z.array(
    z.url({ protocol: /^https?$/ }).refine((url) => {
      const { protocol, hostname, username, password } = new URL(url);
      return !username && !password && (protocol === 'https:' || loopback.test(hostname));
    }, 'Each WEBHOOK_URLS entry must be an https URL without credentials (http only to localhost).'),
  ),
);

/**
 * The platform's environment variables (documented in `.env.example` and the README); a feature
 * adds its own as an EnvSlice (the demos' `DEMO_*`), and the wiring composes them all. Every
 * variable is optional: with none set the site stores enquiries in PGlite under `./.data` and
 * sends no e-mail.
 */
const platformShape = {
  DATABASE_URL: optional(z.url({ protocol: /^postgres(ql)?$/ })),
  DATA_DIR: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().default('.data'),
  ),
  SMTP_URL: optional(z.url({ protocol: /^smtps?$/ })),
  LEADS_TO: optional(z.string().min(3)),
  LEADS_FROM: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().min(3).default('Nirmaya website <no-reply@localhost>'),
  ),
  FORM_SECRET: optional(z.string().min(32, 'FORM_SECRET must be at least 32 characters.')),
  TRUST_PROXY: trustProxySchema,
  SITE_URL: optional(z.url()),
  LEADS_RETENTION_DAYS: positiveInt(365),
  /** Days a quarantined (spam) enquiry is kept unless released. */
  SPAM_RETENTION_DAYS: positiveInt(30),
  /** Quarantined enquiries stored per hour across all clients; past it they are only logged. */
  SPAM_MAX_PER_HOUR: positiveInt(60),
  /**
   * E-mails to one inbox on requests its owner has not proved (confirmation requests, privacy
   * links, "a demo already exists" notices) over any 24 hours, all clients together; past it
   * nothing is sent.
   */
  UNPROVEN_MAIL_PER_ADDRESS: positiveInt(6),
  /** Of those, the e-mails one client group (IPv4 /24, IPv6 /48) may set off: below the ceiling. */
  UNPROVEN_MAIL_PER_CLIENT: positiveInt(2),
  /** Grievance links to one inbox over any 24 hours, counted apart (one per client group). */
  UNPROVEN_GRIEVANCES_PER_ADDRESS: positiveInt(2),
  /**
   * Such e-mails over any hour across the site: past 4/5 of it, those set off without a proof of
   * work are delayed to leave at this rate; reaching it logs the alarm.
   */
  UNPROVEN_MAIL_PER_HOUR: positiveInt(200),
  RATE_LIMIT_MAX: positiveInt(5),
  RATE_LIMIT_WINDOW_MINUTES: positiveInt(10),
  /** Delivery alarm threshold; fractional values allowed (tests use seconds). */
  DELIVERY_ALERT_MINUTES: positiveNumber(15),
  /** How often the delivery monitor checks the job queue (s). */
  DELIVERY_CHECK_SECONDS: positiveNumber(30),
  /**
   * Days before its due date an open privacy request rings the alarm (`/api/health` degraded,
   * `privacy.due_soon` logged); fractions allowed.
   */
  PRIVACY_DUE_ALERT_DAYS: positiveNumber(DEFAULT_PRIVACY_DUE_ALERT_DAYS),
  /**
   * How long a worker's claim on a job lasts unless renewed (s); it is renewed every third of it
   * while the job runs, so a job claimed by an instance that died (SIGKILL, power loss) is taken
   * over by another instance after at most this plus the 5 s poll.
   */
  OUTBOX_LEASE_SECONDS: positiveInt(30),
  METRICS_TOKEN: optional(z.string().min(16, 'METRICS_TOKEN must be at least 16 characters.')),
  WEBHOOK_URLS: webhookUrls,
  WEBHOOK_SECRET: optional(
    z
      .string()
      .regex(
        /^whsec_[A-Za-z0-9+/]+={0,2}$/,
        'WEBHOOK_SECRET must look like whsec_ followed by base64.',
      )
      .refine((secret) => {
        const bytes = Buffer.from(secret.slice('whsec_'.length), 'base64').length;
        return bytes >= 24 && bytes <= 64;
      }, 'WEBHOOK_SECRET must hold 24 to 64 bytes (Standard Webhooks).'),
  ),
  /**
   * An age recipient (`age1…`) that `leads backup` encrypts every backup to, so a copy that leaks
   * is not the data; its identity (kept apart) opens it for `leads restore --identity`.
   */
  BACKUP_AGE_RECIPIENT: optional(
    z.string().regex(/^age1[0-9a-z]+$/, 'BACKUP_AGE_RECIPIENT must be an age recipient (age1…).'),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

/** Checks across the platform's variables, in the order their messages are listed. */
const platformChecks: EnvCheck<z.infer<z.ZodObject<typeof platformShape>>>[] = [
  {
    ok: (env) => !env.DATABASE_URL || Boolean(env.FORM_SECRET),
    message:
      'FORM_SECRET is required when DATABASE_URL is set: a shared database must never hold the key that signs tokens and hashes addresses.',
    path: ['FORM_SECRET'],
  },
  {
    ok: (env) => !env.SMTP_URL || Boolean(env.LEADS_TO),
    message: 'LEADS_TO is required when SMTP_URL is set.',
    path: ['LEADS_TO'],
  },
  {
    ok: (env) => !env.SMTP_URL || isSecureSiteUrl(env.SITE_URL),
    message:
      'SITE_URL must be set to the https: address of the site when SMTP_URL is set: the e-mailed privacy and sign-in links point there (http: is accepted only for localhost, 127.0.0.1 and [::1]).',
    path: ['SITE_URL'],
  },
  {
    ok: (env) => env.WEBHOOK_URLS.length > 0 === Boolean(env.WEBHOOK_SECRET),
    message: 'WEBHOOK_URLS and WEBHOOK_SECRET must be set together.',
    path: ['WEBHOOK_SECRET'],
  },
];

/** The validated platform environment (what every part of the site may read). */
export type Env = z.infer<z.ZodObject<typeof platformShape>>;

/** A check across variables: `ok` false refuses the environment with `message` on `path`. */
export type EnvCheck<E> = { ok: (env: E) => boolean; message: string; path: string[] };

/**
 * A feature's environment variables: their schemas (`shape`, with defaults) and the checks that
 * read them together with the platform's (`checks`). `T` is what the slice adds to Env.
 */
export type EnvSlice<T extends object> = {
  shape: z.ZodRawShape;
  checks: EnvCheck<Env & T>[];
  /** Only carries `T` for readEnv's result. */
  readonly __type?: T;
};

/** Declares a feature's env slice from its zod object and its cross-variable checks. */
export function envSlice<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  checks: EnvCheck<Env & z.infer<z.ZodObject<Shape>>>[] = [],
): EnvSlice<z.infer<z.ZodObject<Shape>>> {
  return { shape: schema.shape, checks };
}

/** The one schema of the platform's variables and `slices`' (theirs after the platform's). */
function composeSchema(slices: readonly EnvSlice<object>[]): z.ZodType<Env> {
  let schema: z.ZodType<Env> = z.object({
    ...platformShape,
    ...Object.assign({}, ...slices.map((slice) => slice.shape)),
  }) as unknown as z.ZodType<Env>;
  for (const check of [...platformChecks, ...slices.flatMap((slice) => slice.checks)])
    schema = schema.refine((env) => check.ok(env as never), {
      message: check.message,
      path: check.path,
    });
  return schema;
}

const cache = new Map<string, { schema: z.ZodType<Env>; parsed?: Env }>();

/**
 * Parses `source` (default `process.env`) with the platform's variables and those of `slices`,
 * once per set of slices for `process.env` (cached).
 * @throws Error listing every invalid variable (the values themselves are never echoed).
 */
export function readEnv<T extends object = object>(
  slices: readonly EnvSlice<T>[] = [],
  source: NodeJS.ProcessEnv = process.env,
): Env & T {
  const key = slices.map((slice) => Object.keys(slice.shape).join(',')).join('|');
  let entry = cache.get(key);
  if (!entry)
    cache.set(
      key,
      (entry = { schema: composeSchema(slices as unknown as readonly EnvSlice<object>[]) }),
    );
  if (entry.parsed && source === process.env) return entry.parsed as Env & T;
  const parsed = entry.schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid environment: ${problems.join('; ')}`);
  }
  if (source === process.env) entry.parsed = parsed.data;
  return parsed.data as Env & T;
}

/**
 * The platform's variables parsed from `source` (default `process.env`, cached): readEnv without
 * a feature's slice.
 * @throws Error listing every invalid variable (the values themselves are never echoed).
 */
export function getEnv(source: NodeJS.ProcessEnv = process.env): Env {
  return readEnv([], source);
}
