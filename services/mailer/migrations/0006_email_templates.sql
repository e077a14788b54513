CREATE TABLE "mailer"."email_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_name_uq" ON "mailer"."email_templates" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_one_default" ON "mailer"."email_templates" USING btree ("is_default") WHERE "mailer"."email_templates"."is_default";