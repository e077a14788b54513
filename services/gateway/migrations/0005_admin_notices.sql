ALTER TABLE "gateway"."admins" ADD COLUMN "notify_email" text;--> statement-breakpoint
ALTER TABLE "gateway"."admins" ADD COLUMN "overdue_email" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "gateway"."admins" ADD COLUMN "weekly_summary" boolean DEFAULT false NOT NULL;