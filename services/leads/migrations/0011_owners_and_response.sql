CREATE TABLE "leads"."lead_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lease_request_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"note" text,
	"called_by" text NOT NULL,
	"called_by_id" uuid,
	"called_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads"."owner_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lease_request_id" uuid NOT NULL,
	"owner_id" uuid,
	"reason" text NOT NULL,
	"changed_by" text,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads"."response_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "response_settings_one_row" CHECK ("leads"."response_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "leads"."staff" (
	"admin_id" uuid PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"active" boolean NOT NULL,
	"removed" boolean DEFAULT false NOT NULL,
	"takes_new_leads" boolean DEFAULT true NOT NULL,
	"revision" bigint NOT NULL,
	"last_assigned_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads"."contact_messages" ADD COLUMN "owner_id" uuid;--> statement-breakpoint
ALTER TABLE "leads"."contact_messages" ADD COLUMN "response_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads"."contact_messages" ADD COLUMN "first_response_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads"."contact_messages" ADD COLUMN "first_response_kind" text;--> statement-breakpoint
ALTER TABLE "leads"."contact_messages" ADD COLUMN "response_working_minutes" integer;--> statement-breakpoint
ALTER TABLE "leads"."contact_messages" ADD COLUMN "overdue_announced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "owner_id" uuid;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "response_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "first_response_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "first_response_kind" text;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "response_working_minutes" integer;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "overdue_announced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads"."lead_calls" ADD CONSTRAINT "lead_calls_lease_request_id_lease_requests_id_fk" FOREIGN KEY ("lease_request_id") REFERENCES "leads"."lease_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads"."owner_changes" ADD CONSTRAINT "owner_changes_lease_request_id_lease_requests_id_fk" FOREIGN KEY ("lease_request_id") REFERENCES "leads"."lease_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads"."owner_changes" ADD CONSTRAINT "owner_changes_owner_id_staff_admin_id_fk" FOREIGN KEY ("owner_id") REFERENCES "leads"."staff"("admin_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_calls_lease_request_idx" ON "leads"."lead_calls" USING btree ("lease_request_id","called_at");--> statement-breakpoint
CREATE INDEX "owner_changes_lease_request_idx" ON "leads"."owner_changes" USING btree ("lease_request_id","changed_at");--> statement-breakpoint
ALTER TABLE "leads"."contact_messages" ADD CONSTRAINT "contact_messages_owner_id_staff_admin_id_fk" FOREIGN KEY ("owner_id") REFERENCES "leads"."staff"("admin_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD CONSTRAINT "lease_requests_owner_id_staff_admin_id_fk" FOREIGN KEY ("owner_id") REFERENCES "leads"."staff"("admin_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_messages_owner_idx" ON "leads"."contact_messages" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "contact_messages_waiting_idx" ON "leads"."contact_messages" USING btree ("response_due_at") WHERE "leads"."contact_messages"."first_response_at" IS NULL;--> statement-breakpoint
CREATE INDEX "lease_requests_owner_idx" ON "leads"."lease_requests" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "lease_requests_waiting_idx" ON "leads"."lease_requests" USING btree ("response_due_at") WHERE "leads"."lease_requests"."first_response_at" IS NULL;