CREATE TABLE "leads"."lead_emails" (
	"email_id" uuid PRIMARY KEY NOT NULL,
	"lease_request_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"revision" text NOT NULL,
	"email" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "email_undeliverable_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "email_undeliverable_reason" text;--> statement-breakpoint
ALTER TABLE "leads"."lead_emails" ADD CONSTRAINT "lead_emails_lease_request_id_lease_requests_id_fk" FOREIGN KEY ("lease_request_id") REFERENCES "leads"."lease_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_emails_lease_request_idx" ON "leads"."lead_emails" USING btree ("lease_request_id","at");