import { z } from "zod";
import { IsoDateTime, hasControlChars } from "../entities/common";

/** The web generates `session-${random base36}-${Date.now()}` and keeps it in local storage. */
export const SESSION_ID_REGEX = /^session-[A-Za-z0-9]+-\d{10,16}$/;
/** Local-storage key under which the browser keeps its session id. */
export const VISITOR_SESSION_STORAGE_KEY = "visitor-session";

export const SessionId = z
  .string({ error: "sessionId is verplicht" })
  .max(100, { error: "sessionId mag hoogstens 100 tekens zijn" })
  .regex(SESSION_ID_REGEX, { error: "sessionId heeft niet de vorm session-<letters en cijfers>-<tijdstip>" });
export type SessionId = z.infer<typeof SessionId>;

export const TrackVisitBody = z
  .strictObject({
    sessionId: SessionId,
    page: z
      .string()
      .max(512)
      .startsWith("/")
      .refine((page) => !hasControlChars(page), { error: "Ongeldig pad" })
      .describe('Path of the page, starting with "/"'),
    referrer: z
      .string()
      .max(1024)
      .refine((referrer) => !hasControlChars(referrer), { error: "Ongeldige referrer" })
      .optional()
      .describe("document.referrer; may be empty"),
  })
  .describe("Sent on load and on every history change; answered 204 No Content");
export type TrackVisitBody = z.infer<typeof TrackVisitBody>;

export const TrackHeartbeatBody = z
  .object({ sessionId: SessionId })
  .describe("Sent every 30 seconds; answered 204 No Content");
export type TrackHeartbeatBody = z.infer<typeof TrackHeartbeatBody>;

export const VISITOR_SERIES_RANGES = ["24h", "7d", "30d"] as const;
export const VisitorSeriesRange = z.enum(VISITOR_SERIES_RANGES, {
  error: `range moet een van ${VISITOR_SERIES_RANGES.join(", ")} zijn`,
});
export type VisitorSeriesRange = z.infer<typeof VisitorSeriesRange>;

export const VisitorSeriesQuery = z.object({ range: VisitorSeriesRange.default("24h") });
export type VisitorSeriesQuery = z.infer<typeof VisitorSeriesQuery>;

export const VisitorSeriesBucket = z.object({
  start: IsoDateTime,
  visitors: z.number().int().min(0).describe("Distinct sessions in the bucket"),
  pageViews: z.number().int().min(0),
});
export type VisitorSeriesBucket = z.infer<typeof VisitorSeriesBucket>;

export const VisitorSeries = z
  .object({ range: VisitorSeriesRange, buckets: z.array(VisitorSeriesBucket) })
  .describe("Hourly buckets for 24h, daily buckets for 7d and 30d, oldest first");
export type VisitorSeries = z.infer<typeof VisitorSeries>;
