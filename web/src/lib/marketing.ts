import type { FormClickIds } from "@lease/contracts";
import {
  CLICK_ID_PARAMS,
  CLICK_ID_REGEX,
  FBP_REGEX,
  GOOGLE_CLICK_ID_PARAMS,
  GOOGLE_CLICK_ID_REGEX,
} from "./constants";
import { currentConsent, subscribeConsent } from "./consent-store";

// The ad platforms' click ids (gclid, fbclid, ttclid, ScCid, ...) of the landing URL, for the
// conversions the server sends after a quote request. Only the page knows the visitor's consent:
// the ids are held in memory for this page; with marketing consent they are also kept in the tab's
// session storage (a reload keeps them) and sent with the quote form, with `marketingConsent: true`.
// Without it (never given, or withdrawn) nothing is kept on the device and the form sends
// `marketingConsent: false` and no id, so the server keeps none and tells no platform.

export const CLICK_IDS_STORAGE_KEY = "lead-click-ids";

/** The click ids of a URL's query, with the time the visitor landed; null when it has none. */
export function clickIdsFrom(search: string, now: number): FormClickIds | null {
  const params = new URLSearchParams(search);
  const ids: FormClickIds = {};
  let any = false;
  for (const name of CLICK_ID_PARAMS) {
    const value = params.get(name)?.trim();
    // Only what the server takes: an id it would refuse must not cost the visitor the quote request.
    const pattern = GOOGLE_CLICK_ID_PARAMS.includes(name) ? GOOGLE_CLICK_ID_REGEX : CLICK_ID_REGEX;
    if (value && pattern.test(value)) {
      ids[name] = value;
      any = true;
    }
  }
  return any ? { ...ids, clickedAt: now } : null;
}

let landed: FormClickIds | null = null;
let started = false;

function session(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

function keepOrForget(): void {
  const storage = session();
  try {
    if (currentConsent()?.marketing === true) {
      if (landed) storage?.setItem(CLICK_IDS_STORAGE_KEY, JSON.stringify(landed));
    } else storage?.removeItem(CLICK_IDS_STORAGE_KEY);
  } catch {
    // blocked storage: the ids stay in memory for this page only
  }
}

/** Reads the landing URL's click ids once per page (the first URL this page was opened with). */
export function captureLandingClicks(): void {
  if (started) return;
  started = true;
  landed = clickIdsFrom(window.location.search, Date.now());
  if (!landed && currentConsent()?.marketing === true) {
    try {
      const kept = session()?.getItem(CLICK_IDS_STORAGE_KEY);
      if (kept) landed = JSON.parse(kept) as FormClickIds;
    } catch {
      landed = null;
    }
  }
  keepOrForget();
  subscribeConsent(keepOrForget);
}

/** crypto.randomUUID, which older browsers and plain http lack: then the server makes the id. */
function newEventId(): string | undefined {
  try {
    return crypto.randomUUID();
  } catch {
    return undefined;
  }
}

export interface FormMarketingFields {
  marketingConsent: boolean;
  clickIds?: FormClickIds;
  fbp?: string;
  eventId?: string;
  pageUrl?: string;
}

/**
 * The Meta pixel's browser id: the _fbp cookie its script set (only once marketing consent loaded
 * it), sent as Meta's fbp match key when it has the shape the server takes.
 */
export function metaBrowserId(cookies = document.cookie): string | undefined {
  const value = /(?:^|;\s*)_fbp=([^;]*)/.exec(cookies)?.[1];
  return value && FBP_REGEX.test(value) ? value : undefined;
}

/** What the quote form sends about marketing: the consent as the page knows it, and with it the ids. */
export function formMarketing(marketing = currentConsent()?.marketing === true): FormMarketingFields {
  if (!marketing) return { marketingConsent: false };
  const eventId = newEventId();
  const fbp = metaBrowserId();
  return {
    marketingConsent: true,
    ...(landed ? { clickIds: landed } : {}),
    ...(fbp ? { fbp } : {}),
    ...(eventId ? { eventId } : {}),
    pageUrl: `${window.location.origin}${window.location.pathname}`,
  };
}
