CREATE SCHEMA "conversions";
--> statement-breakpoint
CREATE TABLE "conversions"."deliveries" (
	"event_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"lead_id" uuid NOT NULL,
	"event" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deliveries_event_id_platform_pk" PRIMARY KEY("event_id","platform")
);
--> statement-breakpoint
CREATE INDEX "deliveries_updated_at_idx" ON "conversions"."deliveries" USING btree ("updated_at");