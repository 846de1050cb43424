CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"dedupe_key" text NOT NULL,
	"owner" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claim_token" uuid,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_dedupe_key_idx" ON "jobs" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "jobs_status_run_at_idx" ON "jobs" USING btree ("status","run_at");--> statement-breakpoint
CREATE INDEX "jobs_owner_idx" ON "jobs" USING btree ("owner");--> statement-breakpoint
-- Carry every job of the old outbox over, keeping its id (a webhook's id derives from it), as the
-- kind and payload the handlers now read. A claim in progress is handed back (due at once).
INSERT INTO "jobs" ("id", "kind", "payload", "dedupe_key", "owner", "status", "attempts", "due_at", "run_at", "last_error", "created_at", "finished_at")
SELECT o."id",
  CASE
    WHEN o."channel" = 'email' THEN 'enquiry.email'
    WHEN o."channel" = 'webhook' AND position('#' in o."target") = 0 THEN 'enquiry.webhook'
    WHEN o."channel" = 'webhook' THEN 'demo.webhook'
    ELSE 'demo.mail'
  END,
  CASE
    WHEN o."channel" = 'email' THEN jsonb_build_object('leadId', o."lead_id")
    WHEN o."channel" = 'webhook' AND position('#' in o."target") = 0
      THEN jsonb_build_object('leadId', o."lead_id", 'url', o."target")
    WHEN o."channel" = 'webhook'
      THEN jsonb_build_object('url', split_part(o."target", '#', 1), 'event', o."payload")
    ELSE jsonb_strip_nulls(jsonb_build_object(
      'bookingId', o."booking_id",
      'mail', split_part(o."target", ':', 1),
      'sequence', split_part(o."target", ':', 3)::integer,
      'cancelled', o."payload"))
  END,
  CASE
    WHEN o."channel" = 'email' THEN 'enquiry.email:' || o."lead_id"
    WHEN o."channel" = 'webhook' AND position('#' in o."target") = 0
      THEN 'enquiry.webhook:' || o."lead_id" || ':' || o."target"
    WHEN o."channel" = 'webhook' THEN 'demo.webhook:' || o."target"
    ELSE 'demo.mail:' || o."target"
  END,
  o."lead_id"::text,
  CASE WHEN o."status" = 'sending' THEN 'pending' ELSE o."status" END,
  o."attempts",
  CASE WHEN o."attempts" = 0 THEN o."next_attempt_at" ELSE o."created_at" END,
  CASE WHEN o."status" = 'sending' THEN now() ELSE o."next_attempt_at" END,
  o."last_error",
  o."created_at",
  o."sent_at"
FROM "outbox" o;
