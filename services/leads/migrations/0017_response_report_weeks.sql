CREATE TABLE "leads"."response_report_stale" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "leads"."response_report_stale_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"week" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads"."response_report_weeks" (
	"kind" text NOT NULL,
	"week" date NOT NULL,
	"owners" uuid[] NOT NULL,
	"campaigns" text[] NOT NULL,
	"records" "bytea" NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "response_report_weeks_kind_week_pk" PRIMARY KEY("kind","week")
);
--> statement-breakpoint
CREATE INDEX "response_report_stale_week_idx" ON "leads"."response_report_stale" USING btree ("week");--> statement-breakpoint
CREATE INDEX "contact_messages_created_at_idx" ON "leads"."contact_messages" USING btree ("created_at");--> statement-breakpoint
-- Written by hand: every change the response report reads marks its lead's Amsterdam week stale, in
-- the change's own transaction (an arrival, a deletion or erasure, and an update of the owner, the
-- visit, the deadline or the first response); the report rebuilds a stale week from its leads.
CREATE FUNCTION "leads"."response_report_touch"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.created_at, OLD.owner_id, OLD.attribution, OLD.response_due_at,
      OLD.first_response_at, OLD.response_working_minutes) IS NOT DISTINCT FROM (NEW.created_at,
      NEW.owner_id, NEW.attribution, NEW.response_due_at, NEW.first_response_at, NEW.response_working_minutes) THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO leads.response_report_stale (kind, week)
    VALUES (TG_ARGV[0], (date_trunc('week', OLD.created_at AT TIME ZONE 'Europe/Amsterdam'))::date);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO leads.response_report_stale (kind, week)
    VALUES (TG_ARGV[0], (date_trunc('week', NEW.created_at AT TIME ZONE 'Europe/Amsterdam'))::date);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "lease_requests_response_report" AFTER INSERT OR UPDATE OR DELETE ON "leads"."lease_requests"
  FOR EACH ROW EXECUTE FUNCTION "leads"."response_report_touch"('lease_request');--> statement-breakpoint
CREATE TRIGGER "contact_messages_response_report" AFTER INSERT OR UPDATE OR DELETE ON "leads"."contact_messages"
  FOR EACH ROW EXECUTE FUNCTION "leads"."response_report_touch"('contact_form');--> statement-breakpoint
-- The backfill: every week that holds leads is stale, so the first report (or the service's
-- rebuild after start) packs it.
INSERT INTO "leads"."response_report_stale" (kind, week)
SELECT DISTINCT 'lease_request', received_week FROM "leads"."lease_requests"
UNION SELECT DISTINCT 'contact_form', (date_trunc('week', created_at AT TIME ZONE 'Europe/Amsterdam'))::date
  FROM "leads"."contact_messages";
