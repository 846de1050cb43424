CREATE TABLE "unproven_mails" (
	"email_hash" text NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "unproven_mails_hash_at" ON "unproven_mails" USING btree ("email_hash","at");--> statement-breakpoint
CREATE INDEX "unproven_mails_at" ON "unproven_mails" USING btree ("at");