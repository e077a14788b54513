CREATE TABLE "tracking"."outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"request_id" text,
	"trace_context" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "tracking"."outbox" USING btree ("created_at") WHERE "tracking"."outbox"."published_at" IS NULL;