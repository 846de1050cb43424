-- The budget of mails to unproven addresses counts per requesting client group too, grievance
-- links apart, and lets a post with a proof of work send while the site is busy. Existing counts
-- (a day at most) keep client_group null and bucket 'proof'; existing enquiries proof_of_work false.
ALTER TABLE "leads" ADD COLUMN "proof_of_work" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "unproven_mails" ADD COLUMN "client_group" text;--> statement-breakpoint
ALTER TABLE "unproven_mails" ADD COLUMN "bucket" text DEFAULT 'proof' NOT NULL;