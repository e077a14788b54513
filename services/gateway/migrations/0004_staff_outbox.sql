CREATE SEQUENCE "gateway"."staff_revision" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "gateway"."outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"request_id" text,
	"trace_context" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "gateway"."admins" ADD COLUMN "takes_new_leads" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "gateway"."outbox" USING btree ("created_at") WHERE "gateway"."outbox"."published_at" IS NULL;--> statement-breakpoint
-- Leads learns every admin that exists before this migration (it then hears of each change).
INSERT INTO "gateway"."outbox" ("job_name", "payload")
SELECT 'leads.staff', jsonb_build_object(
  'adminId', "id", 'username', "username", 'active', "disabled_at" IS NULL, 'removed', false,
  'takesNewLeads', "takes_new_leads", 'revision', nextval('"gateway"."staff_revision"'))
FROM "gateway"."admins";
