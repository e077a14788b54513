CREATE TABLE "tracking"."ad_spend_running" (
	"day" date NOT NULL,
	"platform" text NOT NULL,
	"campaign" text NOT NULL,
	"spend_cents" bigint NOT NULL,
	CONSTRAINT "ad_spend_running_day_platform_campaign_pk" PRIMARY KEY("day","platform","campaign")
);
--> statement-breakpoint
CREATE TABLE "tracking"."report_running_dims" (
	"day" date NOT NULL,
	"dim" smallint NOT NULL,
	"value_id" integer NOT NULL,
	"visitors" bigint NOT NULL,
	"quotes" bigint NOT NULL,
	"contacts" bigint NOT NULL,
	"offers" bigint NOT NULL,
	"contracts" bigint NOT NULL,
	"commission_cents" bigint NOT NULL,
	CONSTRAINT "report_running_dims_day_dim_value_id_pk" PRIMARY KEY("day","dim","value_id")
);
--> statement-breakpoint
--> statement-breakpoint
-- Hand-written: the running totals follow every change of daily_dims (channel and campaign) and
-- ad_spend, whoever writes it. A change of day d adds its difference to the rows d .. the month's
-- last day (creating those missing); additions commute, so concurrent writers need no lock, and
-- they lock the rows in ascending day order.
CREATE FUNCTION "tracking"."report_running_dims_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only the report's dimensions: channel (1) and campaign (3).
  IF coalesce(NEW.dim, OLD.dim) NOT IN (1, 3) THEN RETURN NULL; END IF;
  -- A page-view-only change moves no total.
  IF TG_OP = 'UPDATE' AND (NEW.visitors, NEW.quotes, NEW.contacts, NEW.offers, NEW.contracts, NEW.commission_cents)
     IS NOT DISTINCT FROM (OLD.visitors, OLD.quotes, OLD.contacts, OLD.offers, OLD.contracts, OLD.commission_cents)
  THEN RETURN NULL; END IF;
  INSERT INTO "tracking"."report_running_dims" AS t
    (day, dim, value_id, visitors, quotes, contacts, offers, contracts, commission_cents)
  SELECT g::date, coalesce(NEW.dim, OLD.dim), coalesce(NEW.value_id, OLD.value_id),
         coalesce(NEW.visitors, 0) - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.visitors END,
         coalesce(NEW.quotes, 0) - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.quotes END,
         coalesce(NEW.contacts, 0) - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.contacts END,
         coalesce(NEW.offers, 0) - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.offers END,
         coalesce(NEW.contracts, 0) - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.contracts END,
         coalesce(NEW.commission_cents, 0) - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.commission_cents END
    FROM generate_series(coalesce(NEW.day, OLD.day),
                         date_trunc('month', coalesce(NEW.day, OLD.day)) + interval '1 month - 1 day',
                         interval '1 day') g
  ON CONFLICT (day, dim, value_id) DO UPDATE SET
    visitors = t.visitors + EXCLUDED.visitors, quotes = t.quotes + EXCLUDED.quotes,
    contacts = t.contacts + EXCLUDED.contacts, offers = t.offers + EXCLUDED.offers,
    contracts = t.contracts + EXCLUDED.contracts, commission_cents = t.commission_cents + EXCLUDED.commission_cents;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "daily_dims_report_running" AFTER INSERT OR UPDATE OR DELETE ON "tracking"."daily_dims"
  FOR EACH ROW EXECUTE FUNCTION "tracking"."report_running_dims_follow"();
--> statement-breakpoint
CREATE FUNCTION "tracking"."ad_spend_running_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.spend_cents = OLD.spend_cents THEN RETURN NULL; END IF;
  INSERT INTO "tracking"."ad_spend_running" AS t (day, platform, campaign, spend_cents)
  SELECT g::date, coalesce(NEW.platform, OLD.platform), coalesce(NEW.campaign, OLD.campaign),
         coalesce(NEW.spend_cents, 0) - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.spend_cents END
    FROM generate_series(coalesce(NEW.day, OLD.day),
                         date_trunc('month', coalesce(NEW.day, OLD.day)) + interval '1 month - 1 day',
                         interval '1 day') g
  ON CONFLICT (day, platform, campaign) DO UPDATE SET spend_cents = t.spend_cents + EXCLUDED.spend_cents;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "ad_spend_running" AFTER INSERT OR UPDATE OR DELETE ON "tracking"."ad_spend"
  FOR EACH ROW EXECUTE FUNCTION "tracking"."ad_spend_running_follow"();
--> statement-breakpoint
-- The totals of the rows already there (also run by loadtests/campaign-report.mjs after its bulk insert).
INSERT INTO "tracking"."report_running_dims"
  (day, dim, value_id, visitors, quotes, contacts, offers, contracts, commission_cents)
SELECT g.day, f.dim, f.value_id,
       sum(coalesce(d.visitors, 0)) OVER w, sum(coalesce(d.quotes, 0)) OVER w, sum(coalesce(d.contacts, 0)) OVER w,
       sum(coalesce(d.offers, 0)) OVER w, sum(coalesce(d.contracts, 0)) OVER w, sum(coalesce(d.commission_cents, 0)) OVER w
  FROM (SELECT dim, value_id, date_trunc('month', day)::date AS month, min(day) AS first
          FROM "tracking"."daily_dims" WHERE dim IN (1, 3) GROUP BY 1, 2, 3) f
  CROSS JOIN LATERAL (SELECT g::date AS day FROM generate_series(f.first, f.month + interval '1 month - 1 day', interval '1 day') g) g
  LEFT JOIN "tracking"."daily_dims" d ON d.day = g.day AND d.dim = f.dim AND d.value_id = f.value_id
WINDOW w AS (PARTITION BY f.dim, f.value_id, f.month ORDER BY g.day);
--> statement-breakpoint
INSERT INTO "tracking"."ad_spend_running" (day, platform, campaign, spend_cents)
SELECT g.day, f.platform, f.campaign, sum(coalesce(s.spend_cents, 0)) OVER w
  FROM (SELECT platform, campaign, date_trunc('month', day)::date AS month, min(day) AS first
          FROM "tracking"."ad_spend" GROUP BY 1, 2, 3) f
  CROSS JOIN LATERAL (SELECT g::date AS day FROM generate_series(f.first, f.month + interval '1 month - 1 day', interval '1 day') g) g
  LEFT JOIN "tracking"."ad_spend" s ON s.day = g.day AND s.platform = f.platform AND s.campaign = f.campaign
WINDOW w AS (PARTITION BY f.platform, f.campaign, f.month ORDER BY g.day);
--> statement-breakpoint
-- Hand-written: the report reads a few days of every value; their rows lie one per heap page (a
-- value's month is written at once), so the figures ride in the index and the read is index-only.
CREATE INDEX "report_running_dims_cover_idx" ON "tracking"."report_running_dims" ("day", "dim")
  INCLUDE ("value_id", "visitors", "quotes", "contacts", "offers", "contracts", "commission_cents");
--> statement-breakpoint
CREATE INDEX "ad_spend_running_cover_idx" ON "tracking"."ad_spend_running" ("day")
  INCLUDE ("platform", "campaign", "spend_cents");
