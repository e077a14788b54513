ALTER TABLE "tracking"."conversions" ADD COLUMN "sent" text[];--> statement-breakpoint
ALTER TABLE "tracking"."visitors" ADD COLUMN "sent" text[];--> statement-breakpoint
CREATE INDEX "conversions_waiting_idx" ON "tracking"."conversions" USING btree ("day","lead_id") WHERE "tracking"."conversions"."sent" IS NOT NULL;