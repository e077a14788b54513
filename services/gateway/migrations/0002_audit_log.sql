CREATE TABLE "gateway"."audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"target" text,
	"detail" text
);
--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "gateway"."audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_actor_at_idx" ON "gateway"."audit_log" USING btree ("actor","at");