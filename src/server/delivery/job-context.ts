import 'server-only';
import type { Db } from '../platform/db';
import type { Env } from '../platform/env';
import type { SendMail } from './email/transport';
import type { Registration } from './queue/job';
import type { PostWebhook } from './webhooks/sender';

/**
 * What a feature's job registrations are built from (the wiring passes it to each feature's
 * `jobs.ts` when the site starts).
 */
export type JobContext<E extends Env = Env> = {
  db: Db;
  /** The validated environment (the platform's variables and the features' slices). */
  env: E;
  /** The site secret (FORM_SECRET, else the generated one), read when a job needs it. */
  secret: () => Promise<string>;
  /**
   * The e-mail channel, present when `SMTP_URL` and `LEADS_TO` are both set: the sender, the
   * `From` of every mail (LEADS_FROM) and the provider's inbox (LEADS_TO).
   */
  mail?: { send: SendMail; from: string; leadsTo: string };
  /** The webhook channel, present when `WEBHOOK_URLS` and `WEBHOOK_SECRET` are set. */
  post?: PostWebhook;
};

/** A feature's job kinds with their handlers, for the channels `context` has configured. */
export type FeatureJobs<E extends Env = Env> = (context: JobContext<E>) => Registration[];
