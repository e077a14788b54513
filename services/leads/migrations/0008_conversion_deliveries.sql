-- Issue 35 item 4: a lead's events for the ad platforms (for a retry) and how each platform took them,
-- as the conversions service reported it; both go with the lead.
CREATE TABLE "leads"."conversion_deliveries" (
	"lease_request_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"event" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "conversion_deliveries_lease_request_id_platform_event_pk" PRIMARY KEY("lease_request_id","platform","event")
);
--> statement-breakpoint
CREATE TABLE "leads"."conversion_events" (
	"lease_request_id" uuid NOT NULL,
	"event" text NOT NULL,
	"event_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"value_cents" integer,
	CONSTRAINT "conversion_events_lease_request_id_event_pk" PRIMARY KEY("lease_request_id","event")
);
--> statement-breakpoint
ALTER TABLE "leads"."conversion_deliveries" ADD CONSTRAINT "conversion_deliveries_lease_request_id_lease_requests_id_fk" FOREIGN KEY ("lease_request_id") REFERENCES "leads"."lease_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads"."conversion_events" ADD CONSTRAINT "conversion_events_lease_request_id_lease_requests_id_fk" FOREIGN KEY ("lease_request_id") REFERENCES "leads"."lease_requests"("id") ON DELETE cascade ON UPDATE no action;