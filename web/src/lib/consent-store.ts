import { useSyncExternalStore } from "react";
import { consentCookieString, parseConsent, type ConsentChoice } from "./consent";

// Browser-side state of the cookie banner. On the server there is never a choice and the banner is closed,
// so pre-rendered HTML holds no banner; it opens after hydration.

interface ConsentState {
  choice: ConsentChoice | null;
  bannerOpen: boolean;
}

const SERVER_STATE: ConsentState = { choice: null, bannerOpen: false };
let state: ConsentState | null = null;
const listeners = new Set<() => void>();

function current(): ConsentState {
  if (state === null) {
    const choice = parseConsent(document.cookie);
    state = { choice, bannerOpen: choice === null };
  }
  return state;
}

function update(next: ConsentState): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The visitor's choice now (browser only): null before any. */
export function currentConsent(): ConsentChoice | null {
  return current().choice;
}

/** Called after every change of the choice (or of the banner); returns the unsubscribe. */
export function subscribeConsent(listener: () => void): () => void {
  return subscribe(listener);
}

export function useConsent(): ConsentState {
  return useSyncExternalStore(subscribe, current, () => SERVER_STATE);
}

export function saveConsent(choice: ConsentChoice): void {
  document.cookie = consentCookieString(choice, window.location.protocol === "https:");
  update({ choice, bannerOpen: false });
}

/** The "Cookie Instellingen" button of /cookie-beleid. */
export function openConsentBanner(): void {
  update({ ...current(), bannerOpen: true });
}
