// Header title: the company name, and a short form for small screens.

/** Shown on small screens when neither an abbreviation nor a company name is available. */
export const DEFAULT_MOBILE_TITLE = "LEAS";

function firstLetterOrDigit(word: string): string | undefined {
  return [...word].find((char) => /[\p{L}\p{N}]/u.test(char));
}

/**
 * The small-screen title: the mobileAbbreviation setting when present; otherwise the initials of up to
 * four words of the company name, or the first four letters of a single-word name, in capitals.
 */
export function mobileTitle(companyName?: string | null, mobileAbbreviation?: string | null): string {
  const abbreviation = mobileAbbreviation?.trim();
  if (abbreviation) return abbreviation;
  const words = (companyName ?? "")
    .trim()
    .split(/\s+/)
    .filter((word) => firstLetterOrDigit(word) !== undefined);
  if (words.length === 0) return DEFAULT_MOBILE_TITLE;
  if (words.length === 1) return words[0]!.slice(0, 4).toUpperCase();
  return words
    .slice(0, 4)
    .map((word) => firstLetterOrDigit(word)!.toUpperCase())
    .join("");
}
