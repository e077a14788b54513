import { isbot } from "isbot";
import { sessionTokenFromCookieHeader, verifySession, type SessionDeps } from "@lease/platform";
import type { LiveVisitors } from "../repositories/live-visitors";
import type { Clock } from "./clock";
import { memoize } from "./memo";
import type { GeoLookup } from "./geo";

export interface HitRequest {
  sessionId: string;
  /** undefined for a heartbeat */
  page?: string;
  referrer?: string;
  userAgent: string | undefined;
  cookie: string | undefined;
  /** The visitor's address (X-Forwarded-For believed only from a trusted proxy). */
  ip: string;
}

export type HitOutcome = "recorded" | "bot" | "admin" | "dropped";

const MAX_USER_AGENT = 512;
const isBotAgent = memoize(isbot);

export interface IngestDeps {
  live: LiveVisitors;
  geo: GeoLookup;
  clock: Clock;
  session: SessionDeps;
  /** Called after a hit was recorded (coalesced "visitors changed" publish). */
  changed: () => void;
}

/**
 * Counts one visit or heartbeat, best effort: bots and signed-in admins are left out, and a Redis
 * failure drops the hit ("dropped") instead of failing the public page.
 */
export async function recordHit(deps: IngestDeps, req: HitRequest): Promise<HitOutcome> {
  const userAgent = (req.userAgent ?? "").slice(0, MAX_USER_AGENT);
  if (isBotAgent(userAgent)) return "bot";
  try {
    const token = sessionTokenFromCookieHeader(req.cookie);
    if (token && (await verifySession(deps.session, token))) return "admin";
    const { ip } = req;
    const geo = await deps.geo.lookup(ip);
    await deps.live.record({
      sessionId: req.sessionId,
      page: req.page,
      referrer: req.referrer,
      userAgent,
      ip,
      city: geo.city,
      country: geo.country,
      at: deps.clock.now(),
    });
  } catch {
    return "dropped";
  }
  deps.changed();
  return "recorded";
}
