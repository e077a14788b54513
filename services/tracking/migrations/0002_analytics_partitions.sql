-- Analytics that age well (see the service README): raw page views and per-day visitor rows in
-- monthly partitions, which retention drops whole; rollups written beside them by the batch writer.
-- The unpartitioned tables become legacy_*: the service moves their rows through the same batch
-- writer at start (repositories/backfill.ts) and drops them when they are empty.
ALTER TABLE "tracking"."page_views" RENAME TO "legacy_page_views";--> statement-breakpoint
ALTER TABLE "tracking"."legacy_page_views" RENAME CONSTRAINT "page_views_pkey" TO "legacy_page_views_pkey";--> statement-breakpoint
ALTER INDEX "tracking"."page_views_occurred_at_idx" RENAME TO "legacy_page_views_occurred_at_idx";--> statement-breakpoint
ALTER TABLE "tracking"."visitors" RENAME TO "legacy_visitors";--> statement-breakpoint
ALTER TABLE "tracking"."legacy_visitors" RENAME CONSTRAINT "visitors_pkey" TO "legacy_visitors_pkey";--> statement-breakpoint
ALTER INDEX "tracking"."visitors_last_seen_idx" RENAME TO "legacy_visitors_last_seen_idx";--> statement-breakpoint
-- The 64-bit key of a session or event id, as domain/keys.ts computes it: lets an operator find a
-- session's rows by its id (WHERE session_key = tracking.key64('session-...')).
CREATE FUNCTION "tracking"."key64"(text) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT ('x' || substr(md5($1), 1, 16))::bit(64)::bigint $$;--> statement-breakpoint
-- The 32-bit key of an event id (the stream entry id, or an imported id).
CREATE FUNCTION "tracking"."key32"(text) RETURNS integer LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT ('x' || substr(md5($1), 1, 8))::bit(32)::integer $$;--> statement-breakpoint
CREATE TABLE "tracking"."pages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tracking"."pages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"path" text NOT NULL,
	CONSTRAINT "pages_path_unique" UNIQUE("path")
);
--> statement-breakpoint
CREATE TABLE "tracking"."page_views" (
	"occurred_at" timestamp with time zone NOT NULL,
	"event_key" integer NOT NULL,
	"session_key" bigint NOT NULL,
	"page_id" integer NOT NULL,
	CONSTRAINT "page_views_occurred_at_event_key_pk" PRIMARY KEY("occurred_at","event_key")
) PARTITION BY RANGE ("occurred_at");
--> statement-breakpoint
CREATE TABLE "tracking"."visitors" (
	"session_key" bigint NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"day" date NOT NULL,
	"hours" integer NOT NULL,
	"added" integer NOT NULL,
	"views" integer NOT NULL,
	"landing_page_id" integer NOT NULL,
	"profile_id" integer NOT NULL,
	CONSTRAINT "visitors_day_session_key_pk" PRIMARY KEY("day","session_key")
) PARTITION BY RANGE ("day");
--> statement-breakpoint
CREATE TABLE "tracking"."profiles" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tracking"."profiles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"referrer_host" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"device" text DEFAULT '' NOT NULL,
	"browser" text DEFAULT '' NOT NULL,
	"os" text DEFAULT '' NOT NULL,
	CONSTRAINT "profiles_identity" UNIQUE("referrer_host","country","city","device","browser","os")
);
--> statement-breakpoint
CREATE TABLE "tracking"."hourly" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracking"."hourly_pages" (
	"hour" timestamp with time zone NOT NULL,
	"page_id" integer NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "hourly_pages_hour_page_id_pk" PRIMARY KEY("hour","page_id")
);
--> statement-breakpoint
CREATE TABLE "tracking"."daily" (
	"day" date PRIMARY KEY NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracking"."daily_pages" (
	"day" date NOT NULL,
	"page_id" integer NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "daily_pages_day_page_id_pk" PRIMARY KEY("day","page_id")
);
--> statement-breakpoint
CREATE TABLE "tracking"."monthly" (
	"month" date PRIMARY KEY NOT NULL,
	"views" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracking"."monthly_pages" (
	"month" date NOT NULL,
	"page_id" integer NOT NULL,
	"views" bigint NOT NULL,
	CONSTRAINT "monthly_pages_month_page_id_pk" PRIMARY KEY("month","page_id")
);
--> statement-breakpoint
CREATE TABLE "tracking"."sketches" (
	"kind" text NOT NULL,
	"period" date NOT NULL,
	"scope" integer NOT NULL,
	"regs" "bytea" NOT NULL,
	CONSTRAINT "sketches_kind_period_scope_pk" PRIMARY KEY("kind","period","scope")
);
--> statement-breakpoint
CREATE TABLE "tracking"."sketch_deltas" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tracking"."sketch_deltas_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"day" date NOT NULL,
	"scope" integer NOT NULL,
	"regs" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sketch_deltas_day_scope_idx" ON "tracking"."sketch_deltas" USING btree ("day","scope");--> statement-breakpoint
-- Dense sketches are 4-16 KB of small numbers: lz4 reads them back faster than the default pglz.
DO $$ BEGIN
  ALTER TABLE "tracking"."sketches" ALTER COLUMN "regs" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL;
END $$;
--> statement-breakpoint
-- Monthly partitions are made and dropped by the service while it runs, but only a table's owner
-- may attach or drop partitions: these two functions run as the owner (the role the migrations
-- run as) so the service's own role needs no DDL rights, only EXECUTE on them (infra/README.md).
CREATE FUNCTION "tracking"."ensure_month"(month date) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  suffix text := to_char(month, '"m"YYYY_MM');
  next date := (month + interval '1 month')::date;
BEGIN
  IF month <> date_trunc('month', month)::date THEN
    RAISE EXCEPTION 'not the first day of a month: %', month;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('tracking:partitions'));
  EXECUTE format('CREATE TABLE IF NOT EXISTS tracking.%I PARTITION OF tracking.page_views FOR VALUES FROM (%L) TO (%L)',
    'page_views_' || suffix, month::text || ' 00:00:00 Europe/Amsterdam', next::text || ' 00:00:00 Europe/Amsterdam');
  -- Visitor rows are updated all day (last seen, hours): room on the page keeps those updates HOT.
  EXECUTE format('CREATE TABLE IF NOT EXISTS tracking.%I PARTITION OF tracking.visitors FOR VALUES FROM (%L) TO (%L) WITH (fillfactor = 90)',
    'visitors_' || suffix, month, next);
END $$;
--> statement-breakpoint
CREATE FUNCTION "tracking"."drop_month"(month date) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  suffix text := to_char(month, '"m"YYYY_MM');
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('tracking:partitions'));
  EXECUTE format('DROP TABLE IF EXISTS tracking.%I, tracking.%I', 'page_views_' || suffix, 'visitors_' || suffix);
END $$;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION "tracking"."ensure_month"(date), "tracking"."drop_month"(date) FROM PUBLIC;
