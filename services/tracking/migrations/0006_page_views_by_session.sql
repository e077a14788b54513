-- A lead's attribution reads the page views of one session: by the primary key (time first) that
-- was an index scan of every month's partition filtered on the session (issue 32: 17 s at 10.9 M
-- page views). With the session key indexed, and the read bounded in time so the planner prunes
-- the months the session was not seen, it is one probe per partition touched. IF NOT EXISTS: an
-- operator may have built it per partition CONCURRENTLY ahead of the release.
CREATE INDEX IF NOT EXISTS "page_views_session_idx" ON "tracking"."page_views" USING btree ("session_key");
