DROP INDEX "outbox_lead_id_idx";--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "verdict" text DEFAULT 'lead' NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "spam_reason" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "channel" text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "target" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "leads_verdict_created_at_idx" ON "leads" USING btree ("verdict","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_lead_channel_target_idx" ON "outbox" USING btree ("lead_id","channel","target");