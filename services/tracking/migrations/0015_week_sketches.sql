-- Week piece sketches (issue 46): kind 'w' in tracking.sketches, the visitors of the part of an ISO
-- week that lies in one month (domain/periods.ts weekPieceOf), written by the compactor beside the
-- day and month sketches, so a period's loose days read some 4 sketches a week fewer. The months
-- stored before this migration get a 'p' row (a month whose week sketches are still to be built):
-- the service builds them from their day sketches in the background (repositories/sketches.ts
-- buildPendingWeeks), and readers take those weeks' day sketches until then.
INSERT INTO "tracking"."sketches" ("kind", "period", "scope", "regs")
SELECT DISTINCT 'p', date_trunc('month', "period")::date, 0, '\x'::bytea
FROM "tracking"."sketches" WHERE "kind" = 'd'
ON CONFLICT DO NOTHING;
