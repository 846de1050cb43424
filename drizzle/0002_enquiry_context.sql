ALTER TABLE "leads" ADD COLUMN "demo_requested" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "source_page" text;