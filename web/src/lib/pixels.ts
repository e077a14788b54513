// Advertising pixels (Meta, Snapchat, TikTok). Loaded only after marketing consent and only for a valid
// id from the public company settings. The vendor loaders are re-implemented here instead of pasting
// their inline snippets, because the CSP forbids inline scripts and ids must never be written into HTML.

export interface PixelIds {
  facebookPixelId?: string | null;
  snapchatPixelId?: string | null;
  tiktokPixelId?: string | null;
}

export type PixelVendor = "meta" | "snapchat" | "tiktok";

export const PIXEL_SCRIPT_URLS: Record<PixelVendor, string> = {
  meta: "https://connect.facebook.net/en_US/fbevents.js",
  snapchat: "https://sc-static.net/scevent.min.js",
  tiktok: "https://analytics.tiktok.com/i18n/pixel/events.js",
};

export function isValidMetaPixelId(id: string): boolean {
  return /^\d{10,20}$/.test(id);
}

export function isValidSnapchatPixelId(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
}

export function isValidTiktokPixelId(id: string): boolean {
  return /^[A-Z0-9]{15,25}$/.test(id);
}

/** The vendors to load with their validated ids; invalid or empty ids are dropped. */
export function validPixelIds(ids: PixelIds): Partial<Record<PixelVendor, string>> {
  const result: Partial<Record<PixelVendor, string>> = {};
  const meta = ids.facebookPixelId?.trim();
  const snapchat = ids.snapchatPixelId?.trim();
  const tiktok = ids.tiktokPixelId?.trim().toUpperCase();
  if (meta && isValidMetaPixelId(meta)) result.meta = meta;
  if (snapchat && isValidSnapchatPixelId(snapchat)) result.snapchat = snapchat;
  if (tiktok && isValidTiktokPixelId(tiktok)) result.tiktok = tiktok;
  return result;
}

type QueueFunction = ((...args: unknown[]) => void) & { queue: unknown[][] } & Record<string, unknown>;

interface PixelWindow {
  fbq?: QueueFunction;
  _fbq?: QueueFunction;
  snaptr?: QueueFunction;
  ttq?: TiktokQueue;
  TiktokAnalyticsObject?: string;
}

type TiktokQueue = unknown[] & Record<string, unknown>;

const loaded = new Map<PixelVendor, string>();

function pixelWindow(): PixelWindow {
  return window as unknown as PixelWindow;
}

function injectScript(src: string): void {
  const script = document.createElement("script");
  script.async = true;
  script.src = src;
  script.dataset.pixel = "true";
  document.head.appendChild(script);
}

function loadMeta(id: string): void {
  const w = pixelWindow();
  if (!w.fbq) {
    const fbq = function (...args: unknown[]) {
      const callMethod = fbq.callMethod as ((...a: unknown[]) => void) | undefined;
      if (callMethod) callMethod(...args);
      else fbq.queue.push(args);
    } as QueueFunction;
    fbq.queue = [];
    fbq.push = fbq;
    fbq.loaded = true;
    fbq.version = "2.0";
    w.fbq = fbq;
    w._fbq ??= fbq;
    injectScript(PIXEL_SCRIPT_URLS.meta);
  }
  w.fbq("init", id);
  w.fbq("track", "PageView");
}

function loadSnapchat(id: string): void {
  const w = pixelWindow();
  if (!w.snaptr) {
    const snaptr = function (...args: unknown[]) {
      const handleRequest = snaptr.handleRequest as ((...a: unknown[]) => void) | undefined;
      if (handleRequest) handleRequest(...args);
      else snaptr.queue.push(args);
    } as QueueFunction;
    snaptr.queue = [];
    w.snaptr = snaptr;
    injectScript(PIXEL_SCRIPT_URLS.snapchat);
  }
  w.snaptr("init", id, {});
  w.snaptr("track", "PAGE_VIEW");
}

const TIKTOK_METHODS = [
  "page",
  "track",
  "identify",
  "instances",
  "debug",
  "on",
  "off",
  "once",
  "ready",
  "alias",
  "group",
  "enableCookie",
  "disableCookie",
  "holdConsent",
  "revokeConsent",
  "grantConsent",
];

function loadTiktok(id: string): void {
  const w = pixelWindow();
  w.TiktokAnalyticsObject = "ttq";
  const ttq: TiktokQueue = w.ttq ?? ([] as unknown as TiktokQueue);
  w.ttq = ttq;
  for (const method of TIKTOK_METHODS) {
    ttq[method] ??= (...args: unknown[]) => {
      ttq.push([method, ...args]);
    };
  }
  const ids = (ttq._i ??= {}) as Record<string, unknown>;
  ids[id] = Object.assign([], { _u: PIXEL_SCRIPT_URLS.tiktok });
  ((ttq._t ??= {}) as Record<string, number>)[id] = Date.now();
  ((ttq._o ??= {}) as Record<string, unknown>)[id] = {};
  injectScript(`${PIXEL_SCRIPT_URLS.tiktok}?sdkid=${encodeURIComponent(id)}&lib=ttq`);
  (ttq.page as () => void)();
}

/** Loads each configured pixel once (with its first page view). */
export function loadPixels(ids: PixelIds): void {
  for (const [vendor, id] of Object.entries(validPixelIds(ids)) as [PixelVendor, string][]) {
    if (loaded.has(vendor)) continue;
    loaded.set(vendor, id);
    if (vendor === "meta") loadMeta(id);
    else if (vendor === "snapchat") loadSnapchat(id);
    else loadTiktok(id);
  }
}

/** A page view for every loaded pixel, after a route change. */
export function trackPixelPageView(): void {
  const w = pixelWindow();
  if (loaded.has("meta")) w.fbq?.("track", "PageView");
  if (loaded.has("snapchat")) w.snaptr?.("track", "PAGE_VIEW");
  if (loaded.has("tiktok")) (w.ttq?.page as (() => void) | undefined)?.();
}

/** Hosts the pixels load from and report to; anything of theirs in the page goes with the consent. */
const PIXEL_HOSTS = ["facebook.net", "facebook.com", "sc-static.net", "snapchat.com", "tiktok.com"];
/** First-party cookies the pixel scripts set (Meta, Snapchat, TikTok). */
const PIXEL_COOKIE = /^(_fbp|_fbc|_scid\w*|_sctr|_ttp|_tt_enable_cookie|ttcsid\w*)$/;

function isPixelHost(src: string): boolean {
  try {
    const host = new URL(src, window.location.href).hostname;
    return PIXEL_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
  } catch {
    return false;
  }
}

/** Expires a cookie however it was scoped: this host and every parent domain, path /. */
function expireCookie(name: string): void {
  const labels = window.location.hostname.split(".");
  const domains = [""];
  for (let i = 0; i < labels.length - 1; i++) domains.push(`; Domain=${labels.slice(i).join(".")}`);
  for (const domain of domains) document.cookie = `${name}=; Max-Age=0; Path=/${domain}`;
}

/**
 * Takes the pixels away without marketing consent (withdrawn, or never given): their scripts and
 * whatever they added to the page, their globals (no further events) and their cookies. Answers
 * whether a pixel had been loaded in this page: its vendor code may have run (or still run: a
 * script removed while loading executes all the same), and what it set up there (timers, its own
 * hooks on the page's history) only ends with the page, so the caller then reloads it.
 */
export function unloadPixels(): boolean {
  const injected = loaded.size > 0;
  for (const element of document.querySelectorAll<HTMLElement>("script, iframe, img")) {
    const src = element.getAttribute("src") ?? "";
    if (element.dataset.pixel === "true" || (src && isPixelHost(src))) element.remove();
  }
  const w = pixelWindow() as Record<string, unknown>;
  for (const name of ["fbq", "_fbq", "snaptr", "ttq", "TiktokAnalyticsObject"]) delete w[name];
  for (const part of document.cookie.split(";")) {
    const name = part.split("=")[0]!.trim();
    if (PIXEL_COOKIE.test(name)) expireCookie(name);
  }
  loaded.clear();
  return injected;
}

/**
 * The quote request's Lead event for every loaded pixel, with the event id the server sends with
 * its own event (Meta's eventID, TikTok's event_id, Snapchat's client_dedup_id), so each platform
 * counts the lead once. Loaded pixels only: they exist only with marketing consent.
 */
export function trackPixelLead(eventId: string): void {
  const w = pixelWindow();
  if (loaded.has("meta")) w.fbq?.("track", "Lead", {}, { eventID: eventId });
  if (loaded.has("tiktok"))
    (w.ttq?.track as ((...a: unknown[]) => void) | undefined)?.("SubmitForm", {}, { event_id: eventId });
  if (loaded.has("snapchat")) w.snaptr?.("track", "SIGN_UP", { client_dedup_id: eventId });
}
