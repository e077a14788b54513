-- A lead's attribution reads the page views of one session: by the primary key (time first) that
-- was an index scan of every month's partition filtered on the session (issue 32: 17 s at 10 M
-- page views). With (session_key, occurred_at) indexed, and the read bounded in time so the planner
-- prunes the months the session was not seen, it reads only the session's rows.
-- Building it reads every page view (about half a minute at 10 M page views on a busy 2-core host):
-- longer than the pool's 10 s statement timeout, which is lifted for this migration's transaction.
-- Page view writes wait meanwhile (the visit stream holds them: services/tracking/README.md). On a
-- large database build it ahead without blocking writes, per partition with CREATE INDEX
-- CONCURRENTLY on the same columns: the statement below then attaches those instead of building.
-- (A first version of this migration, on main for an hour, indexed session_key alone as
-- page_views_session_idx; a database that applied it keeps that index, which serves the same read.)
SET LOCAL statement_timeout = 0;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "page_views_session_time_idx" ON "tracking"."page_views" USING btree ("session_key","occurred_at");
