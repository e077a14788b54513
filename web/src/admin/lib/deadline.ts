import type { LeaseRequest } from "@lease/contracts";

// A waiting lead's deadline as staff read it (services/leads/README.md, owners and response
// promises): "Reageren vóór ma 10:00" and how much time is left ("Nog 2 uur") or how late it is
// ("3 uur te laat"), in Amsterdam time.

const PARTS = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Amsterdam",
  weekday: "short",
  day: "2-digit",
  month: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
// Built from parts with fixed Dutch names, so every ICU version writes the same text.
const WEEKDAYS: Record<string, string> = {
  Mon: "ma",
  Tue: "di",
  Wed: "wo",
  Thu: "do",
  Fri: "vr",
  Sat: "za",
  Sun: "zo",
};
const WEEK_MS = 6 * 24 * 3600_000;

/** "ma 10:00" within the coming six days, else "ma 14-12 10:00". */
export function deadlineMoment(due: Date, now: Date): string {
  const part = Object.fromEntries(PARTS.formatToParts(due).map((p) => [p.type, p.value]));
  const day = WEEKDAYS[part.weekday!] ?? part.weekday;
  const far = Math.abs(due.getTime() - now.getTime()) > WEEK_MS;
  return `${day}${far ? ` ${part.day}-${part.month}` : ""} ${part.hour}:${part.minute}`;
}

/** "45 min", "2 uur", "3 dagen" (rounded down; at least 1 min). */
export function span(ms: number): string {
  const minutes = Math.max(1, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} uur`;
  return `${Math.floor(hours / 24)} dagen`;
}

export interface DeadlineText {
  /** "Reageren vóór ma 10:00" */
  due: string;
  /** "Nog 2 uur" or "3 uur te laat" */
  left: string;
  late: boolean;
}

/** The deadline of a lead still waiting for its first response; undefined once answered or without one. */
export function deadlineText(
  lead: Pick<LeaseRequest, "responseDueAt" | "firstResponseAt">,
  now: Date,
): DeadlineText | undefined {
  if (!lead.responseDueAt || lead.firstResponseAt) return undefined;
  const due = new Date(lead.responseDueAt);
  const ms = due.getTime() - now.getTime();
  return {
    due: `Reageren vóór ${deadlineMoment(due, now)}`,
    left: ms > 0 ? `Nog ${span(ms)}` : `${span(-ms)} te laat`,
    late: ms <= 0,
  };
}
