-- A corrected address keeps its rights: the address an enquiry was first sent with, and the
-- enquiry as sent under it, kept when its visitor corrects it. New table, nothing to backfill.
CREATE TABLE "lead_first_addresses" (
	"id" uuid PRIMARY KEY NOT NULL,
	"lead_id" uuid NOT NULL,
	"email" text NOT NULL,
	"enquiry" jsonb NOT NULL,
	"delivered" boolean NOT NULL,
	"corrected_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lead_first_addresses" ADD CONSTRAINT "lead_first_addresses_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_first_addresses_email_lower_idx" ON "lead_first_addresses" USING btree (lower("email"));