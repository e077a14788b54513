/** Whole euros in Dutch notation: "€ 1.234" (deterministic, so server and browser render the same text). */
export function formatEuro(amount: number): string {
  const rounded = Math.round(Number.isFinite(amount) ? amount : 0);
  const digits = Math.abs(rounded)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `€ ${rounded < 0 ? "-" : ""}${digits}`;
}

/** A percentage with a Dutch decimal comma: 4.5 -> "4,5%". */
export function formatPercent(value: number): string {
  return `${String(Math.round(value * 10) / 10).replace(".", ",")}%`;
}
