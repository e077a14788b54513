CREATE TABLE "leads"."weekly_summaries" (
	"admin_id" uuid NOT NULL,
	"week" text NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "weekly_summaries_admin_id_week_pk" PRIMARY KEY("admin_id","week")
);
--> statement-breakpoint
ALTER TABLE "leads"."weekly_summaries" ADD CONSTRAINT "weekly_summaries_admin_id_staff_admin_id_fk" FOREIGN KEY ("admin_id") REFERENCES "leads"."staff"("admin_id") ON DELETE no action ON UPDATE no action;