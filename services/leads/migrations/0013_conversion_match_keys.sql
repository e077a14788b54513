-- Match keys for the ad platforms: the Meta pixel's browser id (fbp) with the lead, the visitor's address
-- only while the lead's arrival is still to be sent (removed once sent, or after 7 days), and which
-- keys each delivered event carried.
CREATE TABLE "leads"."conversion_client_ips" (
	"lease_request_id" uuid PRIMARY KEY NOT NULL,
	"ip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads"."conversion_deliveries" ADD COLUMN "match_keys" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "leads"."lease_requests" ADD COLUMN "fbp" text;--> statement-breakpoint
ALTER TABLE "leads"."conversion_client_ips" ADD CONSTRAINT "conversion_client_ips_lease_request_id_lease_requests_id_fk" FOREIGN KEY ("lease_request_id") REFERENCES "leads"."lease_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversion_client_ips_created_at_idx" ON "leads"."conversion_client_ips" USING btree ("created_at");