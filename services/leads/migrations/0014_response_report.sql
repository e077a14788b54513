-- The response report's columns, in one statement (each stored generated column added alone would
-- rewrite the table once more), and the covering index it reads them from by arrival.
ALTER TABLE "leads"."lease_requests"
  ADD COLUMN "response_clock_minutes" integer GENERATED ALWAYS AS ((round(extract(epoch FROM first_response_at - created_at) / 60))::integer) STORED,
  ADD COLUMN "received_week" date GENERATED ALWAYS AS ((date_trunc('week', created_at AT TIME ZONE 'Europe/Amsterdam'))::date) STORED,
  ADD COLUMN "report_channel" text GENERATED ALWAYS AS (attribution->>'channel') STORED,
  ADD COLUMN "report_campaign" text GENERATED ALWAYS AS (attribution->>'campaign') STORED;--> statement-breakpoint
-- Written by hand (drizzle's index builder has no INCLUDE): everything the report reads, so it is an
-- index-only scan of the period's entries, never the leads' wide rows.
CREATE INDEX "lease_requests_response_report_idx" ON "leads"."lease_requests" USING btree ("created_at")
  INCLUDE ("received_week", "owner_id", "report_channel", "report_campaign", "response_due_at",
           "first_response_at", "response_working_minutes", "response_clock_minutes");
