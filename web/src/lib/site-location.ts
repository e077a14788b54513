import { useSyncExternalStore } from "react";
import { onHistoryChange } from "./history";

// The browser's location for the effects of both apps (SiteEffects): the public site's own router
// (site-router.ts) and the admin's react-router both go through history.pushState/replaceState, so
// this follows whichever runs, without a router context. The state is read where react-router keeps
// it (history.state.usr); the site router stores it there too.

export interface SiteLocation {
  pathname: string;
  state: unknown;
}

const SERVER_LOCATION: SiteLocation = { pathname: "/", state: null };
let snapshot: SiteLocation | null = null;
const listeners = new Set<() => void>();
let following = false;

function read(): SiteLocation {
  const raw: unknown = window.history.state;
  const state = (raw && typeof raw === "object" && "usr" in raw ? raw.usr : null) ?? null;
  if (!snapshot || snapshot.pathname !== window.location.pathname || snapshot.state !== state) {
    snapshot = { pathname: window.location.pathname, state };
  }
  return snapshot;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!following) {
    following = true;
    onHistoryChange(() => {
      for (const notify of listeners) notify();
    });
  }
  return () => {
    listeners.delete(listener);
  };
}

/** The current path and history state; re-renders after every navigation. */
export function useSiteLocation(): SiteLocation {
  return useSyncExternalStore(subscribe, read, () => SERVER_LOCATION);
}
