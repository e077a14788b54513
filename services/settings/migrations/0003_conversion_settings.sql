-- Issue 35 item 4: each ad platform's Conversions API switch and its token, encrypted like the SendGrid key.
ALTER TABLE "settings"."company_settings" ADD COLUMN "meta_conversions_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings"."company_settings" ADD COLUMN "meta_access_token_encrypted" text;--> statement-breakpoint
ALTER TABLE "settings"."company_settings" ADD COLUMN "tiktok_conversions_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings"."company_settings" ADD COLUMN "tiktok_access_token_encrypted" text;--> statement-breakpoint
ALTER TABLE "settings"."company_settings" ADD COLUMN "snapchat_conversions_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings"."company_settings" ADD COLUMN "snapchat_access_token_encrypted" text;