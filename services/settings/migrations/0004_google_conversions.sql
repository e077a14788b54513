-- Issue 44: Google's conversions (Data Manager API): the Google Ads account, each event's conversion action, the credentials encrypted like the tokens.
ALTER TABLE "settings"."company_settings" ADD COLUMN "google_conversions_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings"."company_settings" ADD COLUMN "google_customer_id" text;--> statement-breakpoint
ALTER TABLE "settings"."company_settings" ADD COLUMN "google_action_lead" text;--> statement-breakpoint
ALTER TABLE "settings"."company_settings" ADD COLUMN "google_action_offerte" text;--> statement-breakpoint
ALTER TABLE "settings"."company_settings" ADD COLUMN "google_action_getekend" text;--> statement-breakpoint
ALTER TABLE "settings"."company_settings" ADD COLUMN "google_credentials_encrypted" text;