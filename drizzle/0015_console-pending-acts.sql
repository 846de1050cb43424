CREATE TABLE "console_pending_acts" (
	"id" text PRIMARY KEY NOT NULL,
	"operator_id" text NOT NULL,
	"act" text NOT NULL,
	"fields" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "console_pending_acts" ADD CONSTRAINT "console_pending_acts_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "console_pending_acts_operator_id_idx" ON "console_pending_acts" USING btree ("operator_id");