DROP INDEX "demo_bookings_host_start_live_idx";--> statement-breakpoint
DROP INDEX "demo_bookings_lead_live_idx";--> statement-breakpoint
DROP INDEX "demo_bookings_client_live_idx";--> statement-breakpoint
ALTER TABLE "demo_bookings" ADD COLUMN "held_until" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "demo_bookings_host_start_live_idx" ON "demo_bookings" USING btree ("host_email","starts_at") WHERE "demo_bookings"."status" in ('booked', 'held');--> statement-breakpoint
CREATE UNIQUE INDEX "demo_bookings_lead_live_idx" ON "demo_bookings" USING btree ("lead_id") WHERE "demo_bookings"."status" in ('booked', 'held');--> statement-breakpoint
CREATE INDEX "demo_bookings_client_live_idx" ON "demo_bookings" USING btree ("client_hash") WHERE "demo_bookings"."status" in ('booked', 'held');