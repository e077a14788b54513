CREATE TABLE "mailer"."reply_tokens" (
	"token" text PRIMARY KEY NOT NULL,
	"lease_request_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reply_tokens_lease_request_id_unique" UNIQUE("lease_request_id")
);
--> statement-breakpoint
ALTER TABLE "mailer"."outgoing_emails" ADD COLUMN "reply_to" text;--> statement-breakpoint
ALTER TABLE "mailer"."outgoing_emails" ADD COLUMN "message_id_header" text;--> statement-breakpoint
ALTER TABLE "mailer"."outgoing_emails" ADD COLUMN "references_header" text;--> statement-breakpoint
ALTER TABLE "mailer"."outgoing_emails" ADD COLUMN "in_reply_to_header" text;--> statement-breakpoint
ALTER TABLE "mailer"."outgoing_emails" ADD COLUMN "delivery_state" text;--> statement-breakpoint
ALTER TABLE "mailer"."outgoing_emails" ADD COLUMN "delivery_reason" text;--> statement-breakpoint
ALTER TABLE "mailer"."outgoing_emails" ADD COLUMN "delivery_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mailer"."outgoing_emails" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "outgoing_emails_provider_message_idx" ON "mailer"."outgoing_emails" USING btree ("provider_message_id");--> statement-breakpoint
CREATE INDEX "outgoing_emails_message_id_header_idx" ON "mailer"."outgoing_emails" USING btree ("message_id_header");