CREATE TABLE "grievance_additions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"by" text NOT NULL,
	"text" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "grievance_additions" ADD CONSTRAINT "grievance_additions_request_id_privacy_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."privacy_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "grievance_additions_request_at_idx" ON "grievance_additions" USING btree ("request_id","at");--> statement-breakpoint
-- Hand-written backfill: additions used to be appended to an open grievance's `details` under a
-- line "[Added <time>, <how>]" that anyone could also type. Whatever follows the first such line
-- becomes one addition of provenance unknown (dated at the grievance's verification), and
-- `details` keeps the text before it.
INSERT INTO "grievance_additions" ("id", "request_id", "by", "text", "at")
SELECT gen_random_uuid(), "id", 'unknown', substr("details", strpos("details", E'\n\n[Added ') + 2), "verified_at"
FROM "privacy_requests"
WHERE "kind" = 'grievance' AND "status" = 'open' AND strpos("details", E'\n\n[Added ') > 0;
--> statement-breakpoint
UPDATE "privacy_requests"
SET "details" = substr("details", 1, strpos("details", E'\n\n[Added ') - 1)
WHERE "kind" = 'grievance' AND "status" = 'open' AND strpos("details", E'\n\n[Added ') > 0;
