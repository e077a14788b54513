CREATE TABLE "mailer"."delivery_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sg_event_id" text NOT NULL,
	"outgoing_email_id" uuid NOT NULL,
	"event" text NOT NULL,
	"reason" text,
	"at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_events_sg_event_id_unique" UNIQUE("sg_event_id")
);
--> statement-breakpoint
CREATE TABLE "mailer"."event_batches" (
	"signature_hash" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mailer"."delivery_events" ADD CONSTRAINT "delivery_events_outgoing_email_id_outgoing_emails_id_fk" FOREIGN KEY ("outgoing_email_id") REFERENCES "mailer"."outgoing_emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_events_outgoing_idx" ON "mailer"."delivery_events" USING btree ("outgoing_email_id");--> statement-breakpoint
CREATE INDEX "event_batches_received_at_idx" ON "mailer"."event_batches" USING btree ("received_at");