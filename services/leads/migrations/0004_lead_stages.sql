ALTER TABLE "leads"."lease_requests" ADD COLUMN "monthly_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "commission_cents" integer;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "contract_term" smallint;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "lost_reason" text;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "lost_note" text;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "stage_seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leads"."status_changes" ADD COLUMN "monthly_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "leads"."status_changes" ADD COLUMN "commission_cents" integer;--> statement-breakpoint
ALTER TABLE "leads"."status_changes" ADD COLUMN "contract_term" smallint;--> statement-breakpoint
ALTER TABLE "leads"."status_changes" ADD COLUMN "lost_reason" text;--> statement-breakpoint
ALTER TABLE "leads"."status_changes" ADD COLUMN "note" text;