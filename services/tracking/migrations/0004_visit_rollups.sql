-- Filtered analytics (issue 16): visits and their page views per hour, day and month, visit profile
-- and landing page, so that a read narrowed to a channel, campaign or landing page sums rollup rows of
-- the matching profiles instead of scanning visitor rows. Filled from the visitor rows already
-- stored; from now on the batch writer keeps them in the same transaction as the other rollups.
CREATE TABLE "tracking"."daily_visits" (
	"day" date NOT NULL,
	"profile_id" integer NOT NULL,
	"landing_page_id" integer NOT NULL,
	"visits" integer NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "daily_visits_day_profile_id_landing_page_id_pk" PRIMARY KEY("day","profile_id","landing_page_id")
);
--> statement-breakpoint
CREATE TABLE "tracking"."hourly_visits" (
	"hour" timestamp with time zone NOT NULL,
	"profile_id" integer NOT NULL,
	"landing_page_id" integer NOT NULL,
	"visitors" integer NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "hourly_visits_hour_profile_id_landing_page_id_pk" PRIMARY KEY("hour","profile_id","landing_page_id")
);
--> statement-breakpoint
CREATE TABLE "tracking"."monthly_visits" (
	"month" date NOT NULL,
	"profile_id" integer NOT NULL,
	"landing_page_id" integer NOT NULL,
	"visits" bigint NOT NULL,
	"views" bigint NOT NULL,
	CONSTRAINT "monthly_visits_month_profile_id_landing_page_id_pk" PRIMARY KEY("month","profile_id","landing_page_id")
);
--> statement-breakpoint
CREATE INDEX "conversions_day_idx" ON "tracking"."conversions" USING btree ("day");--> statement-breakpoint
CREATE INDEX "profile_dims_value_idx" ON "tracking"."profile_dims" USING btree ("value_id");--> statement-breakpoint
INSERT INTO "tracking"."daily_visits" ("day", "profile_id", "landing_page_id", "visits", "views")
  SELECT "day", "profile_id", "landing_page_id", count(*), sum("views") FROM "tracking"."visitors"
  GROUP BY "day", "profile_id", "landing_page_id";--> statement-breakpoint
INSERT INTO "tracking"."monthly_visits" ("month", "profile_id", "landing_page_id", "visits", "views")
  SELECT date_trunc('month', "day")::date, "profile_id", "landing_page_id", sum("visits"), sum("views")
  FROM "tracking"."daily_visits" GROUP BY 1, "profile_id", "landing_page_id";--> statement-breakpoint
-- A page view belongs to its session's visitor row of the same Amsterdam day.
INSERT INTO "tracking"."hourly_visits" ("hour", "profile_id", "landing_page_id", "visitors", "views")
  SELECT date_trunc('hour', pv."occurred_at"), v."profile_id", v."landing_page_id",
         count(DISTINCT pv."session_key"), count(*)
  FROM "tracking"."page_views" pv JOIN "tracking"."visitors" v
    ON v."session_key" = pv."session_key" AND v."day" = (pv."occurred_at" AT TIME ZONE 'Europe/Amsterdam')::date
  GROUP BY 1, v."profile_id", v."landing_page_id";