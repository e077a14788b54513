import type { ThemeValues } from "@lease/contracts";

/** Which CSS custom property on the page root carries each theme field. */
export const THEME_CSS_VARIABLES = {
  primaryColor: "--color-primary",
  primaryHover: "--color-primary-hover",
  accentColor: "--color-accent",
  backgroundGradientStart: "--gradient-start",
  backgroundGradientEnd: "--gradient-end",
  textPrimary: "--text-primary",
  textSecondary: "--text-secondary",
  buttonRadius: "--radius-button",
  cardRadius: "--radius-card",
} as const satisfies Record<keyof ThemeValues, string>;

const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;
const RADIUS = /^\d{1,4}px$/;

/** The CSS variables for a (partial) theme; values of the wrong shape are left out. */
export function themeToCssVariables(theme: Partial<ThemeValues>): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [field, variable] of Object.entries(THEME_CSS_VARIABLES)) {
    const value = theme[field as keyof ThemeValues];
    if (typeof value !== "string") continue;
    const pattern = field.endsWith("Radius") ? RADIUS : HEX_COLOR;
    if (pattern.test(value)) variables[variable] = value;
  }
  return variables;
}

/** Applies a theme as style variables on the page root (also used by the admin's live preview). */
export function applyTheme(theme: Partial<ThemeValues>, root: HTMLElement = document.documentElement): void {
  for (const [variable, value] of Object.entries(themeToCssVariables(theme))) {
    root.style.setProperty(variable, value);
  }
}
