CREATE TABLE "tracking"."ad_spend" (
	"platform" text NOT NULL,
	"day" date NOT NULL,
	"campaign" text NOT NULL,
	"spend_cents" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_spend_platform_campaign_day_pk" PRIMARY KEY("platform","campaign","day")
);
--> statement-breakpoint
CREATE TABLE "tracking"."ad_spend_monthly" (
	"platform" text NOT NULL,
	"month" date NOT NULL,
	"campaign" text NOT NULL,
	"spend_cents" bigint NOT NULL,
	CONSTRAINT "ad_spend_monthly_platform_campaign_month_pk" PRIMARY KEY("platform","campaign","month")
);
--> statement-breakpoint
CREATE TABLE "tracking"."spend_links" (
	"platform" text NOT NULL,
	"campaign" text NOT NULL,
	"utm_campaign" text NOT NULL,
	CONSTRAINT "spend_links_platform_campaign_pk" PRIMARY KEY("platform","campaign")
);
--> statement-breakpoint
CREATE INDEX "ad_spend_day_idx" ON "tracking"."ad_spend" USING btree ("day");--> statement-breakpoint
CREATE INDEX "ad_spend_monthly_month_idx" ON "tracking"."ad_spend_monthly" USING btree ("month");