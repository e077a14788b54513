CREATE TABLE "tracking"."ad_spend_running_pending" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tracking"."ad_spend_running_pending_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"day" date NOT NULL,
	"platform" text NOT NULL,
	"campaign" text NOT NULL,
	"spend_cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ad_spend_running_pending_day_idx" ON "tracking"."ad_spend_running_pending" USING btree ("day");--> statement-breakpoint
-- Hand-written: ad_spend's trigger records each statement's changes once (from its transition
-- tables), where 0009's row trigger upserted one running row per day left in the month inside the
-- import's transaction: 10,000 new days took 6 to 12 s, past the gateway's 15 s under load. The
-- spreading moves to tracking.ad_spend_running_compact, as 0010 did for daily_dims.
DROP TRIGGER "ad_spend_running" ON "tracking"."ad_spend";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "tracking"."ad_spend_running_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One function for the three statement triggers (a trigger with transition tables has one event).
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "tracking"."ad_spend_running_pending" (day, platform, campaign, spend_cents)
    SELECT day, platform, campaign, spend_cents FROM new_rows WHERE spend_cents <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "tracking"."ad_spend_running_pending" (day, platform, campaign, spend_cents)
    SELECT day, platform, campaign, -spend_cents FROM old_rows WHERE spend_cents <> 0;
  ELSE
    INSERT INTO "tracking"."ad_spend_running_pending" (day, platform, campaign, spend_cents)
    SELECT day, platform, campaign, sum(delta)
      FROM (SELECT day, platform, campaign, spend_cents AS delta FROM new_rows
            UNION ALL
            SELECT day, platform, campaign, -spend_cents FROM old_rows) c
     GROUP BY 1, 2, 3
    HAVING sum(delta) <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "ad_spend_running_insert" AFTER INSERT ON "tracking"."ad_spend"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "tracking"."ad_spend_running_follow"();
--> statement-breakpoint
CREATE TRIGGER "ad_spend_running_update" AFTER UPDATE ON "tracking"."ad_spend"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "tracking"."ad_spend_running_follow"();
--> statement-breakpoint
CREATE TRIGGER "ad_spend_running_delete" AFTER DELETE ON "tracking"."ad_spend"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "tracking"."ad_spend_running_follow"();
--> statement-breakpoint
-- Moves the oldest pending spend changes (up to max_rows; all for NULL) into the running totals in
-- one statement, as tracking.report_running_compact does for daily_dims: summed per campaign and
-- day first, spread over the days left in their month, one upsert per running row. The caller holds
-- the compaction lock (repositories/running-totals.ts). Answers the number of pending rows taken.
CREATE FUNCTION "tracking"."ad_spend_running_compact"(max_rows integer) RETURNS integer LANGUAGE sql AS $$
  WITH taken AS (
    DELETE FROM "tracking"."ad_spend_running_pending"
     WHERE id IN (SELECT id FROM "tracking"."ad_spend_running_pending" ORDER BY id LIMIT max_rows)
    RETURNING day, platform, campaign, spend_cents
  ), spread AS (
    SELECT g::date AS day, t.platform, t.campaign, sum(t.spend_cents) AS spend_cents
      FROM taken t
      CROSS JOIN LATERAL generate_series(t.day, date_trunc('month', t.day) + interval '1 month - 1 day', interval '1 day') g
     GROUP BY 1, 2, 3
  ), applied AS (
    INSERT INTO "tracking"."ad_spend_running" AS r (day, platform, campaign, spend_cents)
    SELECT day, platform, campaign, spend_cents FROM spread ORDER BY day, platform, campaign
    ON CONFLICT (day, platform, campaign) DO UPDATE SET spend_cents = r.spend_cents + EXCLUDED.spend_cents
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM taken)::integer + 0 * (SELECT count(*) FROM applied)::integer
$$;
