import { KNOWN_PAGE_LABELS, WS_PATH } from "@lease/contracts";

export const POLL_INTERVAL_MS = 10_000;
/** Retry 3 s after a lost connection, 5 s when opening the connection itself threw. */
export const RETRY_AFTER_CLOSE_MS = 3_000;
export const RETRY_AFTER_THROW_MS = 5_000;

/** The admin WebSocket on the page's own host; wss when the page is https. */
export function liveSocketUrl(location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${WS_PATH}`;
}

/** "Zakelijke Lease" for a known page, the path itself otherwise. */
export function pageLabel(page: string): string {
  return KNOWN_PAGE_LABELS[page] ?? page;
}

/** A short, readable browser name from a user agent string (the full string stays in the title). */
export function browserName(userAgent: string): string {
  if (!userAgent) return "Onbekend";
  const rules: [RegExp, string][] = [
    [/Edg\//, "Edge"],
    [/OPR\//, "Opera"],
    [/Firefox\//, "Firefox"],
    [/Chrome\//, "Chrome"],
    [/Safari\//, "Safari"],
  ];
  const browser = rules.find(([pattern]) => pattern.test(userAgent))?.[1];
  const device = /Mobile|Android|iPhone/.test(userAgent)
    ? "mobiel"
    : /iPad|Tablet/.test(userAgent)
      ? "tablet"
      : "";
  if (!browser) return userAgent.slice(0, 40);
  return device ? `${browser} (${device})` : browser;
}
