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
  userAgent: z.string(),
  city: z.string().describe("Empty when unknown"),
  country: z.string().describe("Empty when unknown"),
  ipAddress: z.string().describe("May be empty (not recorded)"),
  lastSeen: IsoDateTime,
});
export type ActiveVisitor = z.infer<typeof ActiveVisitor>;

export const ActiveVisitorList = z.array(ActiveVisitor);
export type ActiveVisitorList = z.infer<typeof ActiveVisitorList>;

/** Dutch labels the visitor dashboard shows for the pages it knows. */
export const KNOWN_PAGE_LABELS: Readonly<Record<string, string>> = {
  "/": "Home",
  "/zakelijke-lease": "Zakelijke Lease",
  "/financiele-lease": "Financiële Lease",
  "/operationele-lease": "Operationele Lease",
  "/fleet-management": "Fleet Management",
  "/over-ons": "Over Ons",
  "/voorwaarden": "Algemene Voorwaarden",
  "/privacy-beleid": "Privacy Beleid",
  "/cookie-beleid": "Cookie Beleid",
  "/admin-login": "Admin Login",
  "/admin": "Admin Dashboard",
};
