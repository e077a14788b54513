ALTER TABLE "leads"."staff" ADD COLUMN "notify_email" text;--> statement-breakpoint
ALTER TABLE "leads"."staff" ADD COLUMN "overdue_email" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "leads"."staff" ADD COLUMN "weekly_summary" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "contact_messages_unannounced_idx" ON "leads"."contact_messages" USING btree ("response_due_at") WHERE "leads"."contact_messages"."first_response_at" IS NULL AND "leads"."contact_messages"."overdue_announced_at" IS NULL;--> statement-breakpoint
CREATE INDEX "lease_requests_unannounced_idx" ON "leads"."lease_requests" USING btree ("response_due_at") WHERE "leads"."lease_requests"."first_response_at" IS NULL AND "leads"."lease_requests"."overdue_announced_at" IS NULL;--> statement-breakpoint
-- Leads already late before the announcement existed are not announced all at once on deploy.
UPDATE "leads"."lease_requests" SET "overdue_announced_at" = now() WHERE "first_response_at" IS NULL AND "response_due_at" < now();--> statement-breakpoint
UPDATE "leads"."contact_messages" SET "overdue_announced_at" = now() WHERE "first_response_at" IS NULL AND "response_due_at" < now();
