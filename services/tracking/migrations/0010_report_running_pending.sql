CREATE TABLE "tracking"."report_running_pending" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tracking"."report_running_pending_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"day" date NOT NULL,
	"dim" smallint NOT NULL,
	"value_id" integer NOT NULL,
	"visitors" bigint NOT NULL,
	"quotes" bigint NOT NULL,
	"contacts" bigint NOT NULL,
	"offers" bigint NOT NULL,
	"contracts" bigint NOT NULL,
	"commission_cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "report_running_pending_day_idx" ON "tracking"."report_running_pending" USING btree ("day");--> statement-breakpoint
-- Hand-written: the writer's transaction records each change of a channel or campaign row once
-- (the trigger of 0009 upserted one running row per day left in the month: measured 1.5 x the visit
-- writer's batch time on the 1st of a month, loadtests/report-totals-cost.mjs). Same trigger, same
-- filter; the spreading moves to tracking.report_running_compact.
CREATE OR REPLACE FUNCTION "tracking"."report_running_dims_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(NEW.dim, OLD.dim) NOT IN (1, 3) THEN RETURN NULL; END IF;
  IF TG_OP = 'UPDATE' AND (NEW.visitors, NEW.quotes, NEW.contacts, NEW.offers, NEW.contracts, NEW.commission_cents)
     IS NOT DISTINCT FROM (OLD.visitors, OLD.quotes, OLD.contacts, OLD.offers, OLD.contracts, OLD.commission_cents)
  THEN RETURN NULL; END IF;
  INSERT INTO "tracking"."report_running_pending"
    (day, dim, value_id, visitors, quotes, contacts, offers, contracts, commission_cents)
  VALUES (coalesce(NEW.day, OLD.day), coalesce(NEW.dim, OLD.dim), coalesce(NEW.value_id, OLD.value_id),
          coalesce(NEW.visitors, 0) - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.visitors END,
          coalesce(NEW.quotes, 0) - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.quotes END,
          coalesce(NEW.contacts, 0) - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.contacts END,
          coalesce(NEW.offers, 0) - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.offers END,
          coalesce(NEW.contracts, 0) - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.contracts END,
          coalesce(NEW.commission_cents, 0) - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.commission_cents END);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Moves the oldest pending changes (up to max_rows; all for NULL) into the running totals in one
-- statement: summed per value and day first, then spread over the days left in their month, one
-- upsert per running row however many changes it takes (a burst on one campaign is one row's
-- update). The caller holds the compaction lock (repositories/running-totals.ts). Answers the
-- number of pending rows taken.
CREATE FUNCTION "tracking"."report_running_compact"(max_rows integer) RETURNS integer LANGUAGE sql AS $$
  WITH taken AS (
    DELETE FROM "tracking"."report_running_pending"
     WHERE id IN (SELECT id FROM "tracking"."report_running_pending" ORDER BY id LIMIT max_rows)
    RETURNING day, dim, value_id, visitors, quotes, contacts, offers, contracts, commission_cents
  ), spread AS (
    SELECT g::date AS day, t.dim, t.value_id, sum(t.visitors) AS visitors, sum(t.quotes) AS quotes,
           sum(t.contacts) AS contacts, sum(t.offers) AS offers, sum(t.contracts) AS contracts,
           sum(t.commission_cents) AS commission_cents
      FROM taken t
      CROSS JOIN LATERAL generate_series(t.day, date_trunc('month', t.day) + interval '1 month - 1 day', interval '1 day') g
     GROUP BY 1, 2, 3
  ), applied AS (
    INSERT INTO "tracking"."report_running_dims" AS r
      (day, dim, value_id, visitors, quotes, contacts, offers, contracts, commission_cents)
    SELECT day, dim, value_id, visitors, quotes, contacts, offers, contracts, commission_cents
      FROM spread ORDER BY day, dim, value_id
    ON CONFLICT (day, dim, value_id) DO UPDATE SET
      visitors = r.visitors + EXCLUDED.visitors, quotes = r.quotes + EXCLUDED.quotes,
      contacts = r.contacts + EXCLUDED.contacts, offers = r.offers + EXCLUDED.offers,
      contracts = r.contracts + EXCLUDED.contracts, commission_cents = r.commission_cents + EXCLUDED.commission_cents
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM taken)::integer + 0 * (SELECT count(*) FROM applied)::integer
$$;
