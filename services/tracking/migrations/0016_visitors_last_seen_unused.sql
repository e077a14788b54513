-- Fewer bytes a page view (issue 46). Visitor rows stop storing last_seen: nothing read it (a lead's
-- attribution reads first_seen, the live list keeps its own in Redis), and keeping it cost 8 bytes
-- a row and an UPDATE of the day's row for every batch of heartbeats. Made nullable here, so the
-- release before (which still writes it) keeps working during the rollout and after a rollback
-- (infra/README.md: drop columns a release later); the column goes with the next release's
-- migration. A null costs no bytes: rows without `sent` already carry a null bitmap, so they are 8
-- bytes smaller on their page from now on (rows written before keep theirs until updated or dropped
-- with their month).
ALTER TABLE "tracking"."visitors" ALTER COLUMN "last_seen" DROP NOT NULL;--> statement-breakpoint
-- A month whose partitions are made once it is over receives only history (an import): its visitor
-- rows are written once and hardly updated, so they need no room on their pages for HOT updates.
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
END $$;
--> statement-breakpoint
-- The page views' key of a month that is over, rebuilt packed (repositories/partitions.ts compact):
-- keys start with a random session hash, so inserts land all over the index and its pages split
-- half full (about 70 % filled). Rebuilt with fillfactor 100 it is about a third smaller; a later
-- import into the month splits pages again. For a role that does not own the tables (the
-- service's own in production): REINDEX CONCURRENTLY cannot run in a function (it needs its own
-- transactions), so this plain REINDEX blocks reads and writes of that one month's page views
-- while it runs (seconds for a month), which the owner's REINDEX CONCURRENTLY never does.
CREATE FUNCTION "tracking"."compact_month"(month date) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  part regclass := to_regclass(format('tracking.%I', 'page_views_' || to_char(month, '"m"YYYY_MM')));
  idx regclass;
BEGIN
  IF part IS NULL THEN
    RETURN;
  END IF;
  SELECT indexrelid::regclass INTO idx FROM pg_index WHERE indrelid = part AND indisprimary;
  IF idx IS NULL THEN
    RETURN;
  END IF;
  EXECUTE format('ALTER INDEX %s SET (fillfactor = 100)', idx);
  EXECUTE format('REINDEX INDEX %s', idx);
END $$;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION "tracking"."compact_month"(date) FROM PUBLIC;
