import { isbot } from "isbot";
import { sessionTokenFromCookieHeader, verifySession, type SessionDeps } from "@lease/platform";
import type { LiveVisitors } from "../repositories/live-visitors";
import { MAX_USER_AGENT, anonymousVisitorId, sourceTag } from "./anonymous-id";
import type { Clock } from "./clock";
import { budgetBlock, ipPrefix } from "./ip-prefix";
import { memoize } from "./memo";
import { trackedPage } from "./pages";
import type { GeoLookup } from "./geo";

export interface HitRequest {
  /** The browser's id, sent only with analytics consent; without it the server derives one. */
  sessionId?: string;
  /** undefined for a heartbeat */
  page?: string;
  referrer?: string;
  /**
   * The landing page sent again when analytics consent was given (with the new session id): it
   * starts the session's visit but is no page view (the page was counted before, without an id).
   */
  consented?: boolean;
  userAgent: string | undefined;
  cookie: string | undefined;
  /** The visitor's address (X-Forwarded-For believed only from a trusted proxy). */
  ip: string;
}

/** over_budget: beyond the address block's budget, answered like any hit but not recorded. */
export type HitOutcome = "recorded" | "bot" | "admin" | "over_budget" | "dropped";

const isBotAgent = memoize(isbot);

/** The day's salt of anonymous ids (repositories/day-salt.ts). */
export interface SaltSource {
  current(now: number): Promise<string> | string;
}

export interface IngestDeps {
  live: LiveVisitors;
  geo: GeoLookup;
  clock: Clock;
  session: SessionDeps;
  salts: SaltSource;
  /** Called after a hit was recorded (coalesced "visitors changed" publish). */
  changed: () => void;
}

/**
 * Counts one visit or heartbeat, best effort: bots and signed-in admins are left out, a hit beyond
 * its address block's budget is not recorded ("over_budget"), and a Redis failure drops the hit
 * ("dropped") instead of failing the public page. Only the site's pages are recorded by name.
 * With analytics consent the browser's id is kept and staff see the address block and user agent;
 * without it the id is derived from the day's salt, the address and the user agent, and staff see
 * neither.
 */
export async function recordHit(deps: IngestDeps, req: HitRequest): Promise<HitOutcome> {
  const userAgent = (req.userAgent ?? "").slice(0, MAX_USER_AGENT);
  if (isBotAgent(userAgent)) return "bot";
  let recorded: boolean;
  try {
    const token = sessionTokenFromCookieHeader(req.cookie);
    if (token && (await verifySession(deps.session, token))) return "admin";
    const { ip } = req;
    const at = deps.clock.now();
    const anonymous = req.sessionId === undefined;
    const salt = await deps.salts.current(at);
    const sessionId = req.sessionId ?? anonymousVisitorId(salt, ip, userAgent);
    const geo = await deps.geo.lookup(ip);
    recorded = await deps.live.record({
      sessionId,
      page: req.page === undefined ? undefined : trackedPage(req.page),
      referrer: req.referrer,
      consented: req.consented === true && req.page !== undefined,
      userAgent,
      ipPrefix: anonymous ? "" : ipPrefix(ip),
      anonymous,
      block: budgetBlock(ip),
      sourceTag: sourceTag(salt, ip),
      city: geo.city,
      country: geo.country,
      at,
    });
  } catch {
    return "dropped";
  }
  if (!recorded) return "over_budget";
  deps.changed();
  return "recorded";
}
