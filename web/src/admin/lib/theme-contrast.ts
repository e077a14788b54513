import type { ThemeValues } from "@lease/contracts";
import { AA_NORMAL_TEXT, LIGHT_BACKGROUND, WHITE_TEXT, contrastRatio, formatRatio } from "../../lib/contrast";
import { THEME_STRONG_VARIABLES } from "../../lib/theme";

type ColorField = keyof typeof THEME_STRONG_VARIABLES;
const HEX = /^#[0-9A-Fa-f]{6}$/;

/** Which text each colour carries or sits under on the site, as the warning names it. */
const PAIRS: Record<ColorField, { pair: string; against: readonly string[]; use: string }> = {
  primaryColor: { pair: "witte tekst op deze kleur", against: [WHITE_TEXT], use: "voor knoppen en links" },
  primaryHover: { pair: "witte tekst op deze kleur", against: [WHITE_TEXT], use: "onder de muis" },
  accentColor: { pair: "witte tekst op deze kleur", against: [WHITE_TEXT], use: "voor accentknoppen" },
  backgroundGradientStart: { pair: "witte tekst op deze kleur", against: [WHITE_TEXT], use: "in de hero" },
  backgroundGradientEnd: { pair: "witte tekst op deze kleur", against: [WHITE_TEXT], use: "in de hero" },
  textPrimary: {
    pair: "deze tekst op een lichte achtergrond",
    against: [WHITE_TEXT, LIGHT_BACKGROUND],
    use: "",
  },
  textSecondary: {
    pair: "deze tekst op een lichte achtergrond",
    against: [WHITE_TEXT, LIGHT_BACKGROUND],
    use: "",
  },
};

/**
 * The theme editor's warning when a chosen colour and the text it goes with stay under WCAG AA
 * (4.5:1), naming the darker shade the site uses instead; null when the pair passes.
 */
export function contrastWarning(field: keyof ThemeValues, value: string): string | null {
  if (!(field in PAIRS) || !HEX.test(value)) return null;
  const { pair, against, use } = PAIRS[field as ColorField];
  const ratio = Math.min(...against.map((bg) => contrastRatio(value, bg)));
  if (ratio >= AA_NORMAL_TEXT) return null;
  const shade = THEME_STRONG_VARIABLES[field as ColorField][1](value);
  return `Onvoldoende contrast: ${pair} haalt ${formatRatio(ratio)}, WCAG AA vraagt 4,5:1. De website gebruikt ${use ? `${use} ` : ""}de donkerdere tint ${shade}.`;
}
