-- The page views of a month that is over, packed (issue 46): one row per session and Amsterdam day,
-- its views 12 bytes each in `views` (big-endian int4s: milliseconds since the day's Amsterdam
-- midnight, the event key, the page id). A page_views row costs 52 bytes on its page (a 24-byte
-- tuple header for 24 bytes of data) and 37 in its key: about 89 a page view. A packed day of a
-- session shares one header and one key entry among its views (about 2.5 on the benchmark's
-- history). Partitioned by month of day like visitors, made and dropped with the month
-- (ensure_month, drop_month); tracking.pack_month moves a closed month over.
CREATE TABLE "tracking"."page_view_days" (
	"session_key" bigint NOT NULL,
	"day" date NOT NULL,
	"views" "bytea" NOT NULL,
	CONSTRAINT "page_view_days_session_key_day_pk" PRIMARY KEY("session_key","day") WITH (fillfactor = 100)
) PARTITION BY RANGE ("day");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "tracking"."ensure_month"(month date) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  suffix text := to_char(month, '"m"YYYY_MM');
  next date := (month + interval '1 month')::date;
  fill int := CASE WHEN next <= (now() AT TIME ZONE 'Europe/Amsterdam')::date THEN 100 ELSE 90 END;
BEGIN
  IF month <> date_trunc('month', month)::date THEN
    RAISE EXCEPTION 'not the first day of a month: %', month;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('tracking:partitions'));
  EXECUTE format('CREATE TABLE IF NOT EXISTS tracking.%I PARTITION OF tracking.page_views FOR VALUES FROM (%L) TO (%L)',
    'page_views_' || suffix, month::text || ' 00:00:00 Europe/Amsterdam', next::text || ' 00:00:00 Europe/Amsterdam');
  -- Visitor rows of a month still running are updated all day (hours, views): room on the page
  -- keeps those updates HOT.
  EXECUTE format('CREATE TABLE IF NOT EXISTS tracking.%I PARTITION OF tracking.visitors FOR VALUES FROM (%L) TO (%L) WITH (fillfactor = %s)',
    'visitors_' || suffix, month, next, fill);
  EXECUTE format('CREATE TABLE IF NOT EXISTS tracking.%I PARTITION OF tracking.page_view_days FOR VALUES FROM (%L) TO (%L)',
    'page_view_days_' || suffix, month, next);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "tracking"."drop_month"(month date) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  suffix text := to_char(month, '"m"YYYY_MM');
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('tracking:partitions'));
  EXECUTE format('DROP TABLE IF EXISTS tracking.%I, tracking.%I, tracking.%I',
    'page_views_' || suffix, 'visitors_' || suffix, 'page_view_days_' || suffix);
END $$;
--> statement-breakpoint
-- The months stored already get theirs.
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT c.relname FROM pg_inherits i
             JOIN pg_class c ON c.oid = i.inhrelid
             JOIN pg_class p ON p.oid = i.inhparent
             JOIN pg_namespace n ON n.oid = p.relnamespace
            WHERE n.nspname = 'tracking' AND p.relname = 'page_views' AND c.relname ~ '^page_views_m\d{4}_\d\d$'
  LOOP
    EXECUTE format('CREATE TABLE IF NOT EXISTS tracking.%I PARTITION OF tracking.page_view_days FOR VALUES FROM (%L) TO (%L)',
      'page_view_days_' || substr(r.relname, 12), to_date(right(r.relname, 7), 'YYYY_MM'),
      (to_date(right(r.relname, 7), 'YYYY_MM') + interval '1 month')::date);
  END LOOP;
END $$;
--> statement-breakpoint
-- The i-th big-endian int4 of a packed row (0-based byte offset `o`); plain SQL, so it is inlined.
CREATE FUNCTION "tracking"."view_int"(b bytea, o int) RETURNS int
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS
$$ SELECT (get_byte(b, o) << 24) | (get_byte(b, o + 1) << 16) | (get_byte(b, o + 2) << 8) | get_byte(b, o + 3) $$;
--> statement-breakpoint
-- A packed row's page views, as page_views rows would give them (inlined into the caller's query).
CREATE FUNCTION "tracking"."unpack_views"(day date, views bytea)
  RETURNS TABLE (occurred_at timestamptz, event_key int, page_id int)
  LANGUAGE sql STABLE STRICT PARALLEL SAFE ROWS 3 AS
$$ SELECT (day::timestamp AT TIME ZONE 'Europe/Amsterdam') + tracking.view_int(views, o) * interval '1 millisecond',
          tracking.view_int(views, o + 4), tracking.view_int(views, o + 8)
     FROM generate_series(0, length(views) - 12, 12) AS o $$;
--> statement-breakpoint
-- Moves a closed month's page views into page_view_days (repositories/partitions.ts compactMonths):
-- writers of that month wait meanwhile (SHARE lock; a late view, an import into it), reads go on
-- until the TRUNCATE that gives the rows' bytes back. Views of a session and day packed before
-- (a late view, a later import) are appended to its row: a view is never in both tables, since
-- every writer checks a packed month's rows after its insert (repositories/page-views.ts). The
-- packed key and the month's visitor key are rebuilt packed as needed (below).
-- Returns the number of page views moved.
CREATE FUNCTION "tracking"."pack_month"(month date) RETURNS bigint
  LANGUAGE plpgsql SECURITY DEFINER
  -- Days and their midnights in Amsterdam time by the session's zone (a cast, not a zone lookup
  -- a row); one sort of the month in memory.
  SET search_path = pg_catalog, pg_temp SET timezone = 'Europe/Amsterdam' SET work_mem = '256MB' AS $$
DECLARE
  suffix text := to_char(month, '"m"YYYY_MM');
  pv regclass := to_regclass(format('tracking.%I', 'page_views_' || suffix));
  pd regclass := to_regclass(format('tracking.%I', 'page_view_days_' || suffix));
  packed_before boolean;
  packed_rows float8;
  visitors_key regclass;
  n bigint;
  rows text := $q$
    SELECT session_key, day, string_agg(int4send(ms) || int4send(event_key) || int4send(page_id), ''::bytea) AS views
      FROM (SELECT session_key, occurred_at::date AS day, event_key, page_id,
                   round(date_part('epoch', occurred_at - occurred_at::date::timestamptz) * 1000)::int AS ms
              FROM %1$s ORDER BY session_key, occurred_at, event_key) v
     GROUP BY session_key, day
     ORDER BY session_key, day$q$;
BEGIN
  IF pv IS NULL OR pd IS NULL THEN
    RETURN 0;
  END IF;
  EXECUTE format('LOCK TABLE %s IN SHARE MODE', pv);
  EXECUTE format('SELECT count(*) FROM %s', pv) INTO n;
  IF n = 0 THEN
    RETURN 0;
  END IF;
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s)', pd) INTO packed_before;
  SELECT greatest(reltuples, 0) INTO packed_rows FROM pg_class WHERE oid = pd;
  IF packed_before THEN
    EXECUTE format('INSERT INTO %2$s AS d (session_key, day, views) ' || rows
                   || ' ON CONFLICT (session_key, day) DO UPDATE SET views = d.views || EXCLUDED.views', pv, pd);
    -- Keys of new sessions land among packed ones and split the key's full pages (half full
    -- after): rebuilt when more than late views came in (an import into the month).
    IF n > packed_rows / 100 THEN
      EXECUTE format('REINDEX TABLE %s', pd);
    END IF;
  ELSE
    -- In key order into an empty partition: the key is built packed.
    EXECUTE format('INSERT INTO %2$s (session_key, day, views) ' || rows, pv, pd);
  END IF;
  -- The month's visitor rows get hardly any new key now either: their key (session hashes within a
  -- day, split half full by random inserts) is rebuilt packed too, when the month was packed first
  -- and after an import into it. Reads of it wait the second or so this takes.
  IF NOT packed_before OR n > packed_rows / 100 THEN
    SELECT ix.indexrelid::regclass INTO visitors_key FROM pg_index ix
     WHERE ix.indrelid = to_regclass(format('tracking.%I', 'visitors_' || suffix)) AND ix.indisprimary;
    IF visitors_key IS NOT NULL THEN
      EXECUTE format('ALTER INDEX %s SET (fillfactor = 100)', visitors_key);
      EXECUTE format('REINDEX INDEX %s', visitors_key);
    END IF;
  END IF;
  EXECUTE format('TRUNCATE %s', pv);
  RETURN n;
END $$;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION "tracking"."pack_month"(date) FROM PUBLIC;
