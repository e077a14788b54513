import type { TrackHeartbeatBody, TrackVisitBody } from "@lease/contracts";
import { SESSION_ID_REGEX, VISITOR_SESSION_STORAGE_KEY } from "./constants";
import { currentConsent, subscribeConsent } from "./consent-store";
import { onHistoryChange } from "./history";

// Visit tracking. Every visit is counted, but what the browser keeps follows the cookie
// choice: with analytics consent a visitor-session id in local storage, sent with every beacon;
// without it (before a choice, after "Weigeren" or with "Analytisch" off) nothing at all, not even
// for the tab: the beacons carry no id and the server derives a daily-rotating one. Every failure
// is ignored: tracking must never disturb a visitor.

export const SESSION_STORAGE_KEY = VISITOR_SESSION_STORAGE_KEY;
export const HEARTBEAT_INTERVAL_MS = 30_000;

/** "session-" + random base36 + "-" + Date.now(). */
export function createSessionId(random: () => number = Math.random, now: () => number = Date.now): string {
  const randomPart = random().toString(36).slice(2, 11) || "0";
  return `session-${randomPart}-${now()}`;
}

export function getSessionId(storage: Pick<Storage, "getItem" | "setItem"> | undefined): string {
  try {
    const existing = storage?.getItem(SESSION_STORAGE_KEY);
    if (existing) return existing;
    const created = createSessionId();
    storage?.setItem(SESSION_STORAGE_KEY, created);
    return created;
  } catch {
    // Storage can be blocked (private mode, strict settings): track this page load only.
    return createSessionId();
  }
}

/** Forgets the id (consent withdrawn): nothing of it stays on the device. */
export function forgetSessionId(storage: Pick<Storage, "removeItem"> | undefined): void {
  try {
    storage?.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // blocked storage holds nothing to forget
  }
}

/**
 * What a form sends along so that the lead is attributed to its visit: the stored session id, only
 * with analytics consent (without it the browser keeps none; the form is then counted as an
 * unattributed conversion). Never creates an id.
 */
export function formSession(
  storage: Pick<Storage, "getItem"> | undefined = safeLocalStorage(),
  analytics = currentConsent()?.analytics === true,
): { sessionId?: string } {
  if (!analytics) return {};
  try {
    const id = storage?.getItem(SESSION_STORAGE_KEY);
    return id && SESSION_ID_REGEX.test(id) ? { sessionId: id } : {};
  } catch {
    return {};
  }
}

function post(path: string, body: TrackVisitBody | TrackHeartbeatBody): void {
  try {
    void fetch(path, {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      keepalive: true,
    }).catch(() => undefined);
  } catch {
    // ignored on purpose
  }
}

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

// One tracker per page, whatever mounts it: a component that remounts (or a second caller) shares
// it, and the last page counted is remembered across restarts, so one page is never counted twice.
let tracker: { users: number; stop: () => void } | undefined;
let lastTracked: string | null = null;

/** Starts visit and heartbeat tracking (once per page, shared by every caller); returns a stop function. */
export function startTracking(): () => void {
  if (!tracker) tracker = { users: 0, stop: runTracker() };
  const current = tracker;
  current.users++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    current.users--;
    if (current.users === 0 && tracker === current) {
      tracker = undefined;
      current.stop();
    }
  };
}

function runTracker(): () => void {
  const storage = safeLocalStorage();
  // The page this tab's visit began on (path with its query: the campaign's utm_* and click ids)
  // and its referrer, as the first beacon sent them; kept in memory only, never on the device.
  let landing: { page: string; referrer: string; withId: boolean } | undefined;
  // The id exists only while analytics consent does; the choice can change at any moment.
  let sessionId: string | undefined;
  const followConsent = () => {
    if (currentConsent()?.analytics === true) {
      if (sessionId) return;
      sessionId = getSessionId(storage);
      // Consent given after the landing page went out without an id (the usual path: the banner
      // shows on the landing page): that page is sent again under the new id, marked, so the
      // session's visit starts where the visitor came from without counting the page twice.
      if (landing && !landing.withId) {
        post("/api/track/visit", {
          sessionId,
          page: landing.page,
          referrer: landing.referrer,
          consented: true,
        });
        landing.withId = true;
      }
    } else {
      sessionId = undefined;
      forgetSessionId(storage);
    }
  };
  followConsent();
  const unsubscribeConsent = subscribeConsent(followConsent);

  const trackVisit = () => {
    const page = window.location.pathname + window.location.search;
    // The router's own replaceState on start-up does not change the page: not a new visit.
    if (page === lastTracked) return;
    lastTracked = page;
    const visit = { page, referrer: document.referrer };
    landing ??= { ...visit, withId: sessionId !== undefined };
    post("/api/track/visit", sessionId ? { sessionId, ...visit } : visit);
  };

  trackVisit();
  const unsubscribe = onHistoryChange(trackVisit);
  const heartbeat = window.setInterval(
    () => post("/api/track/heartbeat", sessionId ? { sessionId } : {}),
    HEARTBEAT_INTERVAL_MS,
  );
  return () => {
    unsubscribe();
    unsubscribeConsent();
    window.clearInterval(heartbeat);
  };
}
