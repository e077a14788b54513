import { THEME_PRESETS, type ThemeValues } from "@lease/contracts";
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

export interface ContrastWarning {
  /** What the editor shows under the field. */
  message: string;
  /** The nearest colour that passes: the lightest shade of the same hue, as the site uses. */
  suggestion: string;
}

/** The factory theme that holds this colour for this field, if any: a colour staff did not choose. */
function factoryTheme(field: ColorField, value: string): string | undefined {
  return THEME_PRESETS.find((preset) => preset.colors[field].toUpperCase() === value.toUpperCase())?.name;
}

/**
 * The theme editor's warning when a chosen colour and the text it goes with stay under WCAG AA
 * (4.5:1), naming the darker shade the site uses instead (offered as the nearest colour that
 * passes), and saying so when the colour is a factory theme's rather than the broker's own choice;
 * null when the pair passes.
 */
export function contrastWarning(field: keyof ThemeValues, value: string): ContrastWarning | null {
  if (!(field in PAIRS) || !HEX.test(value)) return null;
  const color = field as ColorField;
  const { pair, against, use } = PAIRS[color];
  const ratio = Math.min(...against.map((bg) => contrastRatio(value, bg)));
  if (ratio >= AA_NORMAL_TEXT) return null;
  const shade = THEME_STRONG_VARIABLES[color][1](value);
  const factory = factoryTheme(color, value);
  const whose = factory ? ` Dit is de standaardkleur van het thema "${factory}", geen eigen keuze.` : "";
  return {
    message: `Onvoldoende contrast: ${pair} haalt ${formatRatio(ratio)}, WCAG AA vraagt 4,5:1.${whose} De website gebruikt ${use ? `${use} ` : ""}de donkerdere tint ${shade}.`,
    suggestion: shade,
  };
}
