-- Issue 35 item 5: a quote request keeps the ad platforms' click ids, its pixel event id, user agent
-- and page only when the page said the visitor gave marketing consent; they go with the row.
ALTER TABLE "leads"."lease_requests" ADD COLUMN "marketing_consent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "click_ids" jsonb;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "event_id" uuid;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "page_url" text;