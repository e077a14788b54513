CREATE SCHEMA "leads";
--> statement-breakpoint
CREATE TABLE "leads"."contact_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads"."lease_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"car_url" text NOT NULL,
	"contact_number" text NOT NULL,
	"email" text NOT NULL,
	"company_name" text,
	"lease_term" integer,
	"message" text,
	"status" text DEFAULT 'nieuw' NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"email_key" text NOT NULL,
	"phone_key" text NOT NULL,
	"duplicate_of" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads"."outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD CONSTRAINT "lease_requests_duplicate_of_lease_requests_id_fk" FOREIGN KEY ("duplicate_of") REFERENCES "leads"."lease_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lease_requests_created_at_idx" ON "leads"."lease_requests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "lease_requests_email_key_idx" ON "leads"."lease_requests" USING btree ("email_key","created_at");--> statement-breakpoint
CREATE INDEX "lease_requests_phone_key_idx" ON "leads"."lease_requests" USING btree ("phone_key","created_at");--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "leads"."outbox" USING btree ("created_at") WHERE "leads"."outbox"."published_at" IS NULL;