// WCAG 2.2 contrast (SC 1.4.3, AA: 4.5:1 for normal text) and the readable shades the site derives
// from the brand colours a theme sets: the brand stays, text and the surfaces under white text get
// a darker shade of it where the brand colour itself would not pass.

export const AA_NORMAL_TEXT = 4.5;
const WHITE = "#FFFFFF";
/** The lightest surface that carries body text on the site (bg-gray-50). */
const LIGHT_SURFACE = "#F9FAFB";

function channels(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex(rgb: [number, number, number]): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`.toUpperCase();
}

/** Relative luminance (WCAG 2.x definition). */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The colour itself when it reaches `min` against every background; otherwise the lightest shade of
 * it (mixed towards black, hue kept) that does.
 */
export function readableShade(hex: string, backgrounds: readonly string[], min = AA_NORMAL_TEXT): string {
  const passes = (color: string) => backgrounds.every((bg) => contrastRatio(color, bg) >= min);
  if (passes(hex)) return hex.toUpperCase();
  const rgb = channels(hex);
  for (let step = 1; step <= 100; step++) {
    const shade = toHex(rgb.map((c) => c * (1 - step / 100)) as [number, number, number]);
    if (passes(shade)) return shade;
  }
  return "#000000";
}

/** A colour under white text (buttons, badges, the hero): dark enough for white to be read. */
export const surfaceForWhiteText = (hex: string) => readableShade(hex, [WHITE]);
/** A colour for text on the site's light surfaces (links, body text). */
export const textOnLight = (hex: string) => readableShade(hex, [WHITE, LIGHT_SURFACE]);

/** "3,6:1", as the theme editor shows a ratio. */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 10) / 10).toFixed(1).replace(".", ",")}:1`;
}

export const WHITE_TEXT = WHITE;
export const LIGHT_BACKGROUND = LIGHT_SURFACE;
