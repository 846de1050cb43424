CREATE TABLE "demo_bookings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"lead_id" uuid NOT NULL,
	"host_email" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'booked' NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "booking_id" uuid;--> statement-breakpoint
ALTER TABLE "demo_bookings" ADD CONSTRAINT "demo_bookings_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "demo_bookings_host_start_live_idx" ON "demo_bookings" USING btree ("host_email","starts_at") WHERE "demo_bookings"."status" = 'booked';--> statement-breakpoint
CREATE UNIQUE INDEX "demo_bookings_lead_live_idx" ON "demo_bookings" USING btree ("lead_id") WHERE "demo_bookings"."status" = 'booked';--> statement-breakpoint
CREATE INDEX "demo_bookings_starts_at_idx" ON "demo_bookings" USING btree ("starts_at");--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_booking_id_demo_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."demo_bookings"("id") ON DELETE cascade ON UPDATE no action;