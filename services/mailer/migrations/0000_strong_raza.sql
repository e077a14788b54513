CREATE SCHEMA "mailer";
--> statement-breakpoint
CREATE TABLE "mailer"."email_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" text NOT NULL,
	"source_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"sender_name" text NOT NULL,
	"sender_email" text NOT NULL,
	"recipient_email" text NOT NULL,
	"message_body" text NOT NULL,
	"message_type" text NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_messages_source_uq" UNIQUE("source","source_id")
);
--> statement-breakpoint
CREATE TABLE "mailer"."outgoing_emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dedupe_key" text NOT NULL,
	"kind" text NOT NULL,
	"to_email" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text NOT NULL,
	"lease_request_id" uuid,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"provider_message_id" text,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outgoing_emails_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE INDEX "email_messages_created_at_idx" ON "mailer"."email_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "outgoing_emails_status_idx" ON "mailer"."outgoing_emails" USING btree ("status","updated_at");