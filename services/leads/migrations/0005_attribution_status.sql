-- Whether a lead's Herkomst is still being worked out (issue 32): the admin shows "Herkomst wordt
-- bepaald…" while pending and says why there is none when there is none. Leads from before are
-- "found" when they have an attribution, else "unknown" (whether their form sent a session id was
-- not kept).
ALTER TABLE "leads"."contact_messages" ADD COLUMN "attribution_status" text DEFAULT 'unknown' NOT NULL;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "attribution_status" text DEFAULT 'unknown' NOT NULL;--> statement-breakpoint
UPDATE "leads"."contact_messages" SET "attribution_status" = 'found' WHERE "attribution" IS NOT NULL;--> statement-breakpoint
UPDATE "leads"."lease_requests" SET "attribution_status" = 'found' WHERE "attribution" IS NOT NULL;
