CREATE TABLE "mailer"."inbound_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"inbound_email_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"content" "bytea",
	CONSTRAINT "inbound_attachments_position_uq" UNIQUE("inbound_email_id","position")
);
--> statement-breakpoint
CREATE TABLE "mailer"."inbound_emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" text NOT NULL,
	"from_address" text NOT NULL,
	"to_addresses" text NOT NULL,
	"cc_addresses" text DEFAULT '' NOT NULL,
	"html_body" text,
	"in_reply_to" text,
	"references" text[] DEFAULT '{}'::text[] NOT NULL,
	"spam_score" real,
	"spf" text,
	"dkim" text,
	"lease_request_id" uuid,
	"matched_by" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbound_emails_message_id_unique" UNIQUE("message_id")
);
--> statement-breakpoint
CREATE TABLE "mailer"."webhook_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"inbound_secret_hash" text,
	"inbound_rotated_at" timestamp with time zone,
	"inbound_last_received_at" timestamp with time zone,
	"reply_address" text,
	"event_key" text,
	"event_key_set_at" timestamp with time zone,
	"events_last_received_at" timestamp with time zone,
	CONSTRAINT "webhook_settings_one_row" CHECK ("mailer"."webhook_settings"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "mailer"."inbound_attachments" ADD CONSTRAINT "inbound_attachments_inbound_email_id_inbound_emails_id_fk" FOREIGN KEY ("inbound_email_id") REFERENCES "mailer"."inbound_emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_emails_lease_request_idx" ON "mailer"."inbound_emails" USING btree ("lease_request_id");--> statement-breakpoint
CREATE INDEX "inbound_emails_from_idx" ON "mailer"."inbound_emails" USING btree (lower("from_address"));--> statement-breakpoint
CREATE INDEX "inbound_emails_received_at_idx" ON "mailer"."inbound_emails" USING btree ("received_at");--> statement-breakpoint
-- A received e-mail goes with its inbox entry, however that is removed (the admin's delete, the
-- retention pass, a person's erasure): its message and attachments are removed with it.
CREATE FUNCTION "mailer"."inbound_email_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "mailer"."inbound_emails" WHERE "id" = OLD."source_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "email_messages_inbound_gone" AFTER DELETE ON "mailer"."email_messages"
  FOR EACH ROW WHEN (OLD."source" = 'inbound') EXECUTE FUNCTION "mailer"."inbound_email_gone"();
