import { useQuery } from "@tanstack/react-query";
import type { PublicCompanySettings, ThemeSettings } from "@lease/contracts";
import { apiRequest, queryUrl } from "./client";

export const COMPANY_SETTINGS_KEY = ["/api/company-settings"] as const;
export const THEME_SETTINGS_KEY = ["/api/theme-settings"] as const;

const FIVE_MINUTES = 5 * 60_000;
const TEN_MINUTES = 10 * 60_000;

/** Public company settings; undefined while loading or when the call failed (fallback texts show). */
export function useCompanySettings(): PublicCompanySettings | undefined {
  return useQuery({
    queryKey: COMPANY_SETTINGS_KEY,
    queryFn: ({ queryKey }) => apiRequest<PublicCompanySettings>("GET", queryUrl(queryKey)),
    staleTime: FIVE_MINUTES,
  }).data;
}

export function useThemeSettings(): Partial<ThemeSettings> | undefined {
  return useQuery({
    queryKey: THEME_SETTINGS_KEY,
    queryFn: ({ queryKey }) => apiRequest<Partial<ThemeSettings>>("GET", queryUrl(queryKey)),
    staleTime: TEN_MINUTES,
  }).data;
}
