ALTER TABLE "leads"."contact_messages" ADD COLUMN "attribution" jsonb;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "attribution" jsonb;