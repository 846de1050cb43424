CREATE TABLE "privacy_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"kind" text NOT NULL,
	"link_nonce" text NOT NULL,
	"email_hash" text NOT NULL,
	"email" text,
	"details" text,
	"status" text DEFAULT 'open' NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"assigned_to" text,
	"closed_at" timestamp with time zone,
	"outcome" text,
	CONSTRAINT "privacy_requests_reference_unique" UNIQUE("reference"),
	CONSTRAINT "privacy_requests_link_nonce_unique" UNIQUE("link_nonce")
);
--> statement-breakpoint
CREATE TABLE "suppressions" (
	"email_hash" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "notice_version" text;--> statement-breakpoint
CREATE INDEX "privacy_requests_status_due_idx" ON "privacy_requests" USING btree ("status","due_at");--> statement-breakpoint
CREATE INDEX "privacy_requests_email_hash_idx" ON "privacy_requests" USING btree ("email_hash");