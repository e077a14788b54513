-- Filtered analytics (issue 16): visits and their page views per hour, day and month, visit profile
-- and landing page, so that a read narrowed to a channel, campaign or landing page sums rollup rows of
-- the matching profiles instead of scanning visitor rows. Filled from the visitor rows already
-- stored; from now on the batch writer keeps them in the same transaction as the other rollups.
CREATE TABLE "tracking"."daily_dim_pairs" (
	"day" date NOT NULL,
	"fdim" smallint NOT NULL,
	"fvalue" integer NOT NULL,
	"dim" smallint NOT NULL,
	"value_id" integer NOT NULL,
	"visits" integer NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "daily_dim_pairs_day_fdim_fvalue_dim_value_id_pk" PRIMARY KEY("day","fdim","fvalue","dim","value_id")
);
--> statement-breakpoint
CREATE TABLE "tracking"."monthly_dim_pairs" (
	"month" date NOT NULL,
	"fdim" smallint NOT NULL,
	"fvalue" integer NOT NULL,
	"dim" smallint NOT NULL,
	"value_id" integer NOT NULL,
	"visits" bigint NOT NULL,
	"views" bigint NOT NULL,
	CONSTRAINT "monthly_dim_pairs_month_fdim_fvalue_dim_value_id_pk" PRIMARY KEY("month","fdim","fvalue","dim","value_id")
);

--> statement-breakpoint
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
  GROUP BY 1, v."profile_id", v."landing_page_id";--> statement-breakpoint
-- Each visit counted under each of its filter values (channel, campaign, landing page) and each of its
-- breakdown values of another dimension; a profile's values are in profile_dims, the landing page is
-- the visit's own.
INSERT INTO "tracking"."daily_dim_pairs" ("day", "fdim", "fvalue", "dim", "value_id", "visits", "views")
  SELECT v."day", f."dim", f."value_id", b."dim", b."value_id", sum(v."visits"), sum(v."views")
  FROM "tracking"."daily_visits" v
  CROSS JOIN LATERAL (
    SELECT dv."dim", pd."value_id" FROM "tracking"."profile_dims" pd
      JOIN "tracking"."dim_values" dv ON dv."id" = pd."value_id" WHERE pd."profile_id" = v."profile_id"
    UNION ALL SELECT 4::smallint, v."landing_page_id") f
  CROSS JOIN LATERAL (
    SELECT dv."dim", pd."value_id" FROM "tracking"."profile_dims" pd
      JOIN "tracking"."dim_values" dv ON dv."id" = pd."value_id" WHERE pd."profile_id" = v."profile_id"
    UNION ALL SELECT 4::smallint, v."landing_page_id") b
  WHERE f."dim" IN (1, 3, 4) AND b."dim" <> f."dim"
  GROUP BY v."day", f."dim", f."value_id", b."dim", b."value_id";--> statement-breakpoint
INSERT INTO "tracking"."monthly_dim_pairs" ("month", "fdim", "fvalue", "dim", "value_id", "visits", "views")
  SELECT date_trunc('month', "day")::date, "fdim", "fvalue", "dim", "value_id", sum("visits"), sum("views")
  FROM "tracking"."daily_dim_pairs" GROUP BY 1, "fdim", "fvalue", "dim", "value_id";