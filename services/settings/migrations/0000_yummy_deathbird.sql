CREATE SCHEMA "settings";
--> statement-breakpoint
CREATE TABLE "settings"."company_settings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"singleton" boolean DEFAULT true NOT NULL,
	"company_name" text,
	"mobile_abbreviation" text,
	"kvk_number" text,
	"btw_number" text,
	"address" text,
	"city" text,
	"postal_code" text,
	"phone_number" text,
	"email_address" text,
	"website" text,
	"description" text,
	"sendgrid_api_key_encrypted" text,
	"from_email_address" text,
	"facebook_pixel_id" text,
	"snapchat_pixel_id" text,
	"tiktok_pixel_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone,
	CONSTRAINT "company_settings_singleton_unique" UNIQUE("singleton"),
	CONSTRAINT "company_settings_singleton" CHECK ("settings"."company_settings"."singleton")
);
--> statement-breakpoint
CREATE TABLE "settings"."theme_settings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"singleton" boolean DEFAULT true NOT NULL,
	"primary_color" text NOT NULL,
	"primary_hover" text NOT NULL,
	"accent_color" text NOT NULL,
	"background_gradient_start" text NOT NULL,
	"background_gradient_end" text NOT NULL,
	"text_primary" text NOT NULL,
	"text_secondary" text NOT NULL,
	"button_radius" text NOT NULL,
	"card_radius" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "theme_settings_singleton_unique" UNIQUE("singleton"),
	CONSTRAINT "theme_settings_singleton" CHECK ("settings"."theme_settings"."singleton")
);
