import { useEffect, useSyncExternalStore } from "react";
import type { PublicCompanySettings, ThemeSettings } from "@lease/contracts";
import { apiRequest } from "./client";

// The public settings every page shows (company details, theme), shared by all islands of a page
// and by the effects: one request each per page load, again when a component mounts after they
// went stale (5 and 10 minutes). A small store instead of react-query, which the public
// pages do not load. A failed request leaves them undefined: the fallback texts and the stylesheet's
// theme show.

/** The admin's query keys for the same endpoints (its own react-query cache). */
export const COMPANY_SETTINGS_KEY = ["/api/company-settings"] as const;
export const THEME_SETTINGS_KEY = ["/api/theme-settings"] as const;

const FIVE_MINUTES = 5 * 60_000;
const TEN_MINUTES = 10 * 60_000;

interface SettingsStore<T> {
  /** Starts the request unless a fresh answer or a request is there. */
  load(): void;
  use(): T | undefined;
}

function settingsStore<T>(url: string, staleAfterMs: number): SettingsStore<T> {
  let value: T | undefined;
  let fetchedAt = 0;
  let pending = false;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  const load = () => {
    if (pending || (fetchedAt > 0 && Date.now() - fetchedAt < staleAfterMs)) return;
    pending = true;
    apiRequest<T>("GET", url)
      .then((answer) => {
        value = answer;
        fetchedAt = Date.now();
        for (const listener of listeners) listener();
      })
      .catch(() => undefined)
      .finally(() => {
        pending = false;
      });
  };
  return {
    load,
    use() {
      useEffect(load, []);
      // Undefined in the pre-rendered HTML and while hydrating, so an island hydrates against the
      // page as it was rendered and shows the settings right after.
      return useSyncExternalStore(
        subscribe,
        () => value,
        () => undefined,
      );
    },
  };
}

const companySettings = settingsStore<PublicCompanySettings>("/api/company-settings", FIVE_MINUTES);
const themeSettings = settingsStore<Partial<ThemeSettings>>("/api/theme-settings", TEN_MINUTES);

/** Starts both requests as a page starts, before any island asks. */
export function loadPublicSettings(): void {
  companySettings.load();
  themeSettings.load();
}

/** Public company settings; undefined while loading or when the call failed (fallback texts show). */
export function useCompanySettings(): PublicCompanySettings | undefined {
  return companySettings.use();
}

export function useThemeSettings(): Partial<ThemeSettings> | undefined {
  return themeSettings.use();
}
