const AMSTERDAM_DAY = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Amsterdam",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** Today in Amsterdam as YYYY-MM-DD, the days follow-ups are kept in. */
export function amsterdamToday(now: Date = new Date()): string {
  return AMSTERDAM_DAY.format(now);
}

export type FollowUpState = "later" | "today" | "overdue";

/** Where a follow-up day stands against today; null when none is set. */
export function followUpState(day: string | null, today: string): FollowUpState | null {
  if (!day) return null;
  return day < today ? "overdue" : day === today ? "today" : "later";
}

/** "26-11-2026" for a YYYY-MM-DD day: the panel's date format, the same in every browser. */
export function formatDay(day: string): string {
  const [year, month, date] = day.split("-");
  return `${date}-${month}-${year}`;
}

/** The list's badge: what to do when. */
export function followUpBadge(
  day: string,
  today: string,
): { label: string; tone: "red" | "yellow" | "gray" } {
  const state = followUpState(day, today);
  if (state === "overdue") return { label: `Opvolgen te laat (${formatDay(day)})`, tone: "red" };
  if (state === "today") return { label: "Vandaag opvolgen", tone: "yellow" };
  return { label: `Opvolgen op ${formatDay(day)}`, tone: "gray" };
}

/** The daily notice's sentence. */
export function followUpsDueText(due: number): string {
  return due === 1
    ? "1 aanvraag staat voor vandaag (of eerder) op opvolgen."
    : `${due} aanvragen staan voor vandaag (of eerder) op opvolgen.`;
}
