import { z } from "zod";
import { IsoDateTime, Uuid } from "./common";

export const HEX_COLOR_MESSAGE = "Gebruik een kleur in het formaat #RRGGBB";
export const RADIUS_MESSAGE = "Kies een van de beschikbare afrondingen";

export const HexColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/, { error: HEX_COLOR_MESSAGE });
export type HexColor = z.infer<typeof HexColor>;

export const BUTTON_RADIUS_OPTIONS = [
  { value: "4px", label: "Scherp" },
  { value: "8px", label: "Normaal" },
  { value: "12px", label: "Afgerond" },
  { value: "16px", label: "Zeer Afgerond" },
  { value: "9999px", label: "Volledig Rond" },
] as const;

export const CARD_RADIUS_OPTIONS = [
  { value: "8px", label: "Klein" },
  { value: "12px", label: "Normaal" },
  { value: "16px", label: "Groot" },
  { value: "20px", label: "Zeer Groot" },
] as const;

export const ButtonRadius = z.enum(["4px", "8px", "12px", "16px", "9999px"], { error: RADIUS_MESSAGE });
export type ButtonRadius = z.infer<typeof ButtonRadius>;

export const CardRadius = z.enum(["8px", "12px", "16px", "20px"], { error: RADIUS_MESSAGE });
export type CardRadius = z.infer<typeof CardRadius>;

export const THEME_DEFAULTS = {
  primaryColor: "#EA580C",
  primaryHover: "#DC2626",
  accentColor: "#10B981",
  backgroundGradientStart: "#1E40AF",
  backgroundGradientEnd: "#7C3AED",
  textPrimary: "#111827",
  textSecondary: "#6B7280",
  buttonRadius: "8px",
  cardRadius: "12px",
} as const satisfies ThemeValues;

/** The nine editable theme fields, applied as style variables on the page root. */
export const ThemeValues = z.object({
  primaryColor: HexColor,
  primaryHover: HexColor,
  accentColor: HexColor,
  backgroundGradientStart: HexColor,
  backgroundGradientEnd: HexColor,
  textPrimary: HexColor,
  textSecondary: HexColor,
  buttonRadius: ButtonRadius,
  cardRadius: CardRadius,
});
export type ThemeValues = z.infer<typeof ThemeValues>;

/** The colour fields of a theme (everything but the radii). */
export type ThemeColors = Pick<
  ThemeValues,
  | "primaryColor"
  | "primaryHover"
  | "accentColor"
  | "backgroundGradientStart"
  | "backgroundGradientEnd"
  | "textPrimary"
  | "textSecondary"
>;

/**
 * Presets of the theme editor (each sets a primary and an accent colour). Choosing one sets every
 * colour, so no colour of the previous theme is left behind (a red hover under a blue primary):
 * the hover a darker shade of the primary, the hero gradient from a deep shade to one that still
 * carries white text (WCAG AA), the text colours the defaults'. Default Orange is the defaults.
 */
export const THEME_PRESETS: readonly { name: string; colors: ThemeColors }[] = [
  {
    name: "Default Orange",
    colors: {
      primaryColor: THEME_DEFAULTS.primaryColor,
      primaryHover: THEME_DEFAULTS.primaryHover,
      accentColor: THEME_DEFAULTS.accentColor,
      backgroundGradientStart: THEME_DEFAULTS.backgroundGradientStart,
      backgroundGradientEnd: THEME_DEFAULTS.backgroundGradientEnd,
      textPrimary: THEME_DEFAULTS.textPrimary,
      textSecondary: THEME_DEFAULTS.textSecondary,
    },
  },
  {
    name: "Professional Blue",
    colors: {
      primaryColor: "#2563EB",
      primaryHover: "#1D4ED8",
      accentColor: "#059669",
      backgroundGradientStart: "#1E3A8A",
      backgroundGradientEnd: "#2563EB",
      textPrimary: "#111827",
      textSecondary: "#6B7280",
    },
  },
  {
    name: "Modern Purple",
    colors: {
      primaryColor: "#7C3AED",
      primaryHover: "#6D28D9",
      accentColor: "#F59E0B",
      backgroundGradientStart: "#4C1D95",
      backgroundGradientEnd: "#7C3AED",
      textPrimary: "#111827",
      textSecondary: "#6B7280",
    },
  },
  {
    name: "Elegant Green",
    colors: {
      primaryColor: "#059669",
      primaryHover: "#047857",
      accentColor: "#DC2626",
      backgroundGradientStart: "#064E3B",
      backgroundGradientEnd: "#047857",
      textPrimary: "#111827",
      textSecondary: "#6B7280",
    },
  },
  {
    name: "Corporate Gray",
    colors: {
      primaryColor: "#374151",
      primaryHover: "#1F2937",
      accentColor: "#EF4444",
      backgroundGradientStart: "#111827",
      backgroundGradientEnd: "#4B5563",
      textPrimary: "#111827",
      textSecondary: "#6B7280",
    },
  },
];

export const THEME_FIELDS = Object.keys(ThemeValues.shape) as (keyof ThemeValues)[];

export const ThemeSettings = ThemeValues.extend({
  id: Uuid,
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type ThemeSettings = z.infer<typeof ThemeSettings>;
