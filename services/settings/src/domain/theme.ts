import { THEME_DEFAULTS, ThemeSettings } from "@lease/contracts";
import type { ThemeSettingsRow } from "../repositories/theme-settings";

export function toThemeSettings(row: ThemeSettingsRow): ThemeSettings {
  return ThemeSettings.parse({
    id: row.id,
    primaryColor: row.primaryColor,
    primaryHover: row.primaryHover,
    accentColor: row.accentColor,
    backgroundGradientStart: row.backgroundGradientStart,
    backgroundGradientEnd: row.backgroundGradientEnd,
    textPrimary: row.textPrimary,
    textSecondary: row.textSecondary,
    buttonRadius: row.buttonRadius,
    cardRadius: row.cardRadius,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  });
}

/** The theme's defaults (THEME_DEFAULTS, "Default Orange"), as a full update (reset). */
export const themeDefaults = () => ({ ...THEME_DEFAULTS });
