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

/** Presets of the theme editor; choosing one sets the primary and accent colours. */
export const THEME_PRESETS = [
  { name: "Default Orange", primary: "#EA580C", accent: "#10B981" },
  { name: "Professional Blue", primary: "#2563EB", accent: "#059669" },
  { name: "Modern Purple", primary: "#7C3AED", accent: "#F59E0B" },
  { name: "Elegant Green", primary: "#059669", accent: "#DC2626" },
  { name: "Corporate Gray", primary: "#374151", accent: "#EF4444" },
] as const;

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

export const THEME_FIELDS = Object.keys(ThemeValues.shape) as (keyof ThemeValues)[];

export const ThemeSettings = ThemeValues.extend({
  id: Uuid,
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type ThemeSettings = z.infer<typeof ThemeSettings>;
