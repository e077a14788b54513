CREATE TABLE "leads"."lead_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lease_request_id" uuid NOT NULL,
	"author" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "leads"."status_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lease_request_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"changed_by" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "follow_up_on" date;--> statement-breakpoint
ALTER TABLE "leads"."lead_notes" ADD CONSTRAINT "lead_notes_lease_request_id_lease_requests_id_fk" FOREIGN KEY ("lease_request_id") REFERENCES "leads"."lease_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads"."status_changes" ADD CONSTRAINT "status_changes_lease_request_id_lease_requests_id_fk" FOREIGN KEY ("lease_request_id") REFERENCES "leads"."lease_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_notes_lease_request_idx" ON "leads"."lead_notes" USING btree ("lease_request_id","created_at");--> statement-breakpoint
CREATE INDEX "status_changes_lease_request_idx" ON "leads"."status_changes" USING btree ("lease_request_id","changed_at");--> statement-breakpoint
CREATE INDEX "lease_requests_follow_up_on_idx" ON "leads"."lease_requests" USING btree ("follow_up_on") WHERE "leads"."lease_requests"."follow_up_on" IS NOT NULL;