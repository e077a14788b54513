CREATE TABLE "tracking"."lead_stages" (
	"lead_id" uuid PRIMARY KEY NOT NULL,
	"seq" integer NOT NULL,
	"offered" boolean NOT NULL,
	"signed" boolean NOT NULL,
	"commission_cents" bigint NOT NULL,
	"counted" boolean NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tracking"."daily" ADD COLUMN "offers" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."daily" ADD COLUMN "contracts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."daily" ADD COLUMN "commission_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."daily_dims" ADD COLUMN "offers" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."daily_dims" ADD COLUMN "contracts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."daily_dims" ADD COLUMN "commission_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."monthly" ADD COLUMN "offers" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."monthly" ADD COLUMN "contracts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."monthly" ADD COLUMN "commission_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."monthly_dims" ADD COLUMN "offers" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."monthly_dims" ADD COLUMN "contracts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking"."monthly_dims" ADD COLUMN "commission_cents" bigint DEFAULT 0 NOT NULL;