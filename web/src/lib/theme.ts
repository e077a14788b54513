import type { ThemeValues } from "@lease/contracts";
import { surfaceForWhiteText, textOnLight } from "./contrast";

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

type ColorField = Exclude<keyof ThemeValues, "buttonRadius" | "cardRadius">;

/** The readable twin of each colour (styles.css): what text and surfaces under white text use. */
export const THEME_STRONG_VARIABLES = {
  primaryColor: ["--color-primary-strong", textOnLight],
  primaryHover: ["--color-primary-hover-strong", textOnLight],
  accentColor: ["--color-accent-strong", textOnLight],
  backgroundGradientStart: ["--gradient-start-strong", surfaceForWhiteText],
  backgroundGradientEnd: ["--gradient-end-strong", surfaceForWhiteText],
  textPrimary: ["--text-primary-strong", textOnLight],
  textSecondary: ["--text-secondary-strong", textOnLight],
} as const satisfies Record<ColorField, readonly [string, (hex: string) => string]>;

const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;
const RADIUS = /^\d{1,4}px$/;

/** The CSS variables for a (partial) theme; values of the wrong shape are left out. */
export function themeToCssVariables(theme: Partial<ThemeValues>): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [field, variable] of Object.entries(THEME_CSS_VARIABLES)) {
    const value = theme[field as keyof ThemeValues];
    if (typeof value !== "string") continue;
    const pattern = field.endsWith("Radius") ? RADIUS : HEX_COLOR;
    if (!pattern.test(value)) continue;
    variables[variable] = value;
    const strong = THEME_STRONG_VARIABLES[field as ColorField];
    if (strong) variables[strong[0]] = strong[1](value);
  }
  return variables;
}

/** Applies a theme as style variables on the page root (also used by the admin's live preview). */
export function applyTheme(theme: Partial<ThemeValues>, root: HTMLElement = document.documentElement): void {
  for (const [variable, value] of Object.entries(themeToCssVariables(theme))) {
    root.style.setProperty(variable, value);
  }
}
