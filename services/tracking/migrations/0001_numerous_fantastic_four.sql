-- Key page views by their stream entry id and visitors by their session id: the random uuid keys
-- doubled the insert cost of every batch. The id columns go first, taking their primary keys along.
ALTER TABLE "tracking"."page_views" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "tracking"."visitors" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "tracking"."page_views" DROP CONSTRAINT "page_views_event_id_unique";--> statement-breakpoint
ALTER TABLE "tracking"."visitors" DROP CONSTRAINT "visitors_session_id_unique";--> statement-breakpoint
ALTER TABLE "tracking"."page_views" ADD PRIMARY KEY ("event_id");--> statement-breakpoint
ALTER TABLE "tracking"."visitors" ADD PRIMARY KEY ("session_id");
