CREATE SCHEMA "tracking";
--> statement-breakpoint
CREATE TABLE "tracking"."page_views" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" text NOT NULL,
	"session_id" text NOT NULL,
	"page" text NOT NULL,
	"referrer" text,
	"occurred_at" timestamp with time zone NOT NULL,
	CONSTRAINT "page_views_event_id_unique" UNIQUE("event_id")
);
--> statement-breakpoint
CREATE TABLE "tracking"."visitors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" text NOT NULL,
	"ip_prefix" text,
	"user_agent" text,
	"page" text NOT NULL,
	"referrer" text,
	"country" text,
	"city" text,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	CONSTRAINT "visitors_session_id_unique" UNIQUE("session_id")
);
--> statement-breakpoint
CREATE INDEX "page_views_occurred_at_idx" ON "tracking"."page_views" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "visitors_last_seen_idx" ON "tracking"."visitors" USING btree ("last_seen");