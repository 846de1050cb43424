-- Holds block no one: a hold records its client's group (hashClientGroup) for the limit of unlapsed
-- holds per group. Existing bookings keep client_group null (not counted by that limit).
ALTER TABLE "demo_bookings" ADD COLUMN "client_group" text;--> statement-breakpoint
CREATE INDEX "demo_bookings_group_held_idx" ON "demo_bookings" USING btree ("client_group") WHERE "demo_bookings"."status" = 'held';