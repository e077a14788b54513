CREATE TABLE "gateway"."retired_usernames" (
	"username" text PRIMARY KEY NOT NULL,
	"admin_id" uuid NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gateway"."admins" ADD COLUMN "one_time_password_expires_at" timestamp with time zone;--> statement-breakpoint
-- One-time passwords handed out before they expired get the 72 hours from now.
UPDATE "gateway"."admins" SET "one_time_password_expires_at" = now() + interval '72 hours' WHERE "must_change_password";--> statement-breakpoint
ALTER TABLE "gateway"."audit_log" ADD COLUMN "actor_id" uuid;--> statement-breakpoint
-- Names that differ only in case: the oldest account keeps its name, each later one gets its id's
-- first eight characters appended (it signs in with that name; the panel shows it).
UPDATE "gateway"."admins" AS a SET "username" = a."username" || '-' || left(a."id"::text, 8)
WHERE EXISTS (
	SELECT 1 FROM "gateway"."admins" AS b
	WHERE lower(b."username") = lower(a."username") AND (b."created_at", b."id") < (a."created_at", a."id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "admins_username_lower_idx" ON "gateway"."admins" USING btree (lower("username"));
