import 'server-only';
import { z } from 'zod';

/** Treats an empty variable (`FOO=` in a .env file) as unset. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const positiveInt = (fallback: number) =>
  z.preprocess((value) => (value === '' || value === undefined ? fallback : value), z.coerce.number().int().positive());

/**
 * The environment variables of the enquiry pipeline (documented in `.env.example` and the README).
 * Every variable is optional: with none set the site stores enquiries in PGlite under `./.data`
 * and sends no e-mail.
 */
const envSchema = z
  .object({
    DATABASE_URL: optional(z.url({ protocol: /^postgres(ql)?$/ })),
    DATA_DIR: z.preprocess((value) => (value === '' ? undefined : value), z.string().default('.data')),
    SMTP_URL: optional(z.url({ protocol: /^smtps?$/ })),
    LEADS_TO: optional(z.string().min(3)),
    LEADS_FROM: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.string().min(3).default('Nirmaya website <no-reply@localhost>'),
    ),
    FORM_SECRET: optional(z.string().min(32, 'FORM_SECRET must be at least 32 characters.')),
    TRUST_PROXY: z.preprocess(
      (value) => (value === '' || value === undefined || value === 'false' ? 0 : value === 'true' ? 1 : value),
      z.coerce.number().int().min(0).max(10),
    ),
    SITE_URL: optional(z.url()),
    LEADS_RETENTION_DAYS: positiveInt(365),
    /** Days a quarantined (spam) enquiry is kept unless released (issue 10). */
    SPAM_RETENTION_DAYS: positiveInt(30),
    /** Quarantined enquiries stored per hour across all clients; past it they are only logged (issue 10). */
    SPAM_MAX_PER_HOUR: positiveInt(60),
    RATE_LIMIT_MAX: positiveInt(5),
    RATE_LIMIT_WINDOW_MINUTES: positiveInt(10),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .refine((env) => !env.SMTP_URL || env.LEADS_TO, {
    message: 'LEADS_TO is required when SMTP_URL is set.',
    path: ['LEADS_TO'],
  });

/** The validated environment. */
export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/**
 * Parses `source` (default `process.env`) once and caches the result.
 * @throws Error listing every invalid variable (the values themselves are never echoed).
 */
export function getEnv(source: NodeJS.ProcessEnv = process.env): Env {
  if (cached && source === process.env) return cached;
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment: ${problems.join('; ')}`);
  }
  if (source === process.env) cached = parsed.data;
  return parsed.data;
}
