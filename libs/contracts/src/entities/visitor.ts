import { z } from "zod";
import { IsoDateTime, Uuid } from "./common";

export const Visitor = z.object({
  id: Uuid,
  sessionId: z.string(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  page: z.string(),
  referrer: z.string().nullable(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  isActive: z.boolean(),
  lastSeen: IsoDateTime,
  createdAt: IsoDateTime,
});
export type Visitor = z.infer<typeof Visitor>;

export const PageView = z.object({
  id: Uuid,
  sessionId: z.string(),
  page: z.string(),
  timestamp: IsoDateTime,
});
export type PageView = z.infer<typeof PageView>;

const Count = z.number().int().min(0);

export const TopPage = z.object({ page: z.string(), views: Count });
export type TopPage = z.infer<typeof TopPage>;

/** Read model behind the Analytics tab counters. */
export const VisitorStats = z.object({
  currentActive: Count,
  todayTotal: Count,
  thisWeekTotal: Count,
  topPages: z.array(TopPage),
});
export type VisitorStats = z.infer<typeof VisitorStats>;

export const ActiveVisitor = z.object({
  id: z.string().describe("Stable id of the live session"),
  page: z.string(),
  userAgent: z.string().describe("Empty without analytics consent"),
  city: z.string().describe("Empty when unknown"),
  country: z.string().describe("Empty when unknown"),
  ipAddress: z
    .string()
    .describe(
      "The address block the visitor came from (IPv4 /24 or IPv6 /48, e.g. 145.53.1.0/24), never the full address; empty when unknown or without analytics consent",
    ),
  anonymous: z
    .boolean()
    .describe(
      "Counted without analytics consent: identified by a daily-rotating hash on the server, shown without address or user agent",
    ),
  lastSeen: IsoDateTime,
});
export type ActiveVisitor = z.infer<typeof ActiveVisitor>;

export const ActiveVisitorList = z.array(ActiveVisitor);
export type ActiveVisitorList = z.infer<typeof ActiveVisitorList>;
