-- Where visits come from and what they bring (issue 16): the visit profile gains the UTM parameters,
-- the paid-click flag and the channel (and loses the city); breakdown rollups per day and month;
-- quote requests and contact messages counted as conversions.
CREATE TABLE "tracking"."conversions" (
	"lead_id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"day" date NOT NULL,
	"session_key" bigint,
	"profile_id" integer,
	"landing_page_id" integer
);
--> statement-breakpoint
CREATE TABLE "tracking"."daily_dims" (
	"day" date NOT NULL,
	"dim" smallint NOT NULL,
	"value_id" integer NOT NULL,
	"visitors" integer NOT NULL,
	"views" integer NOT NULL,
	"quotes" integer DEFAULT 0 NOT NULL,
	"contacts" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_dims_day_dim_value_id_pk" PRIMARY KEY("day","dim","value_id")
);
--> statement-breakpoint
CREATE TABLE "tracking"."dim_values" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tracking"."dim_values_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"dim" smallint NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "dim_values_identity" UNIQUE("dim","value")
);
--> statement-breakpoint
CREATE TABLE "tracking"."monthly_dims" (
	"month" date NOT NULL,
	"dim" smallint NOT NULL,
	"value_id" integer NOT NULL,
	"visits" bigint NOT NULL,
	"views" bigint NOT NULL,
	"quotes" integer DEFAULT 0 NOT NULL,
	"contacts" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "monthly_dims_month_dim_value_id_pk" PRIMARY KEY("month","dim","value_id")
);
--> statement-breakpoint
CREATE TABLE "tracking"."profile_dims" (
	"profile_id" integer NOT NULL,
	"value_id" integer NOT NULL,
	CONSTRAINT "profile_dims_profile_id_value_id_pk" PRIMARY KEY("profile_id","value_id")
);
--> statement-breakpoint
ALTER TABLE "tracking"."profiles" DROP CONSTRAINT "profiles_identity";--> statement-breakpoint
ALTER TABLE "tracking"."daily" ADD COLUMN "quotes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."daily" ADD COLUMN "contacts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."monthly" ADD COLUMN "quotes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."monthly" ADD COLUMN "contacts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."profiles" ADD COLUMN "channel" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."profiles" ADD COLUMN "utm_source" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."profiles" ADD COLUMN "utm_medium" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."profiles" ADD COLUMN "utm_campaign" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."profiles" ADD COLUMN "utm_term" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."profiles" ADD COLUMN "utm_content" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."profiles" ADD COLUMN "paid_click" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Profiles written before this migration had no UTM data: their channel follows from the referrer.
UPDATE "tracking"."profiles" SET "channel" = CASE WHEN "referrer_host" = '' THEN 'Direct' ELSE 'Referral' END;--> statement-breakpoint
-- Without the city, profiles that differed only by it are one: their visitor rows keep the first.
CREATE TEMP TABLE "profile_merge" ON COMMIT DROP AS
  SELECT "id", min("id") OVER (PARTITION BY "referrer_host", "country", "device", "browser", "os") AS "keep"
  FROM "tracking"."profiles";--> statement-breakpoint
UPDATE "tracking"."visitors" v SET "profile_id" = m."keep"
  FROM "profile_merge" m WHERE v."profile_id" = m."id" AND m."id" <> m."keep";--> statement-breakpoint
DELETE FROM "tracking"."profiles" p USING "profile_merge" m WHERE p."id" = m."id" AND m."id" <> m."keep";--> statement-breakpoint
ALTER TABLE "tracking"."profiles" DROP COLUMN "city";--> statement-breakpoint
ALTER TABLE "tracking"."profiles" ADD CONSTRAINT "profiles_identity" UNIQUE("referrer_host","channel","utm_source","utm_medium","utm_campaign","utm_term","utm_content","paid_click","country","device","browser","os");