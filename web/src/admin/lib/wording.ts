// Dutch sentences the panel builds from numbers: singular and plural, and comparisons.

const number = new Intl.NumberFormat("nl-NL");
const percent = new Intl.NumberFormat("nl-NL", { maximumFractionDigits: 1 });

/** "1 contactbericht", "2 contactberichten", "1.234 offerteaanvragen". */
export function countOf(count: number, one: string, many: string): string {
  return `${number.format(count)} ${count === 1 ? one : many}`;
}

/** "+12,5%", "-3%", "±0%". */
export function signedPercent(change: number): string {
  return `${change > 0 ? "+" : change < 0 ? "-" : "±"}${percent.format(Math.abs(change))}%`;
}

/** "a", "a en b", "a, b en c". */
export function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} en ${items[items.length - 1]}`;
}

/**
 * The comparison with the previous period as Dutch sentences. A figure whose previous value was 0
 * has no percentage; it is said so instead of "bezoekers nieuw":
 * "Ten opzichte van 1 - 27 november 2026: bezoekers +12%, paginaweergaven -3%. Voor conversies is er
 * geen vergelijking: in die periode waren er geen."
 */
export function describeChange(
  previous: string,
  change: { visitors: number | null; pageViews: number | null; conversions: number | null },
): string {
  const figures = [
    ["bezoekers", change.visitors],
    ["paginaweergaven", change.pageViews],
    ["conversies", change.conversions],
  ] as const;
  const compared = figures.filter(([, value]) => value !== null);
  const without = figures.filter(([, value]) => value === null).map(([name]) => name);
  const sentences: string[] = [];
  if (compared.length > 0)
    sentences.push(
      `Ten opzichte van ${previous}: ${compared.map(([name, value]) => `${name} ${signedPercent(value!)}`).join(", ")}.`,
    );
  if (without.length === figures.length)
    sentences.push(
      `In de vorige periode (${previous}) waren er geen bezoekers, paginaweergaven of conversies om mee te vergelijken.`,
    );
  else if (without.length > 0)
    sentences.push(`Voor ${listOf(without)} is er geen vergelijking: in die periode waren er geen.`);
  return sentences.join(" ");
}
