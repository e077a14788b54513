-- Issue 35 item 4, Google Ads: the offline conversion file's settings (conversion names, the secret
-- URL's hash), and an index that lets the file read only consented leads with a Google click id.
CREATE TABLE "leads"."google_ads_feed" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"lead_conversion_name" text,
	"offerte_conversion_name" text,
	"getekend_conversion_name" text,
	"secret_hash" text,
	"secret_rotated_at" timestamp with time zone,
	"secret_fetched_at" timestamp with time zone,
	CONSTRAINT "google_ads_feed_one_row" CHECK ("leads"."google_ads_feed"."id" = 1)
);
--> statement-breakpoint
CREATE INDEX "lease_requests_google_click_idx" ON "leads"."lease_requests" USING btree ("created_at") WHERE "leads"."lease_requests"."marketing_consent" AND "leads"."lease_requests"."click_ids" ?| ARRAY['gclid', 'gbraid', 'wbraid'];
