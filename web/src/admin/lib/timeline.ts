import type { EmailMessage, LeadHistoryEntry, LeaseStatus } from "@lease/contracts";

/** One row of a lead's timeline: the leads service's history plus the e-mails sent to the lead. */
export type TimelineItem = LeadHistoryEntry | { kind: "email"; at: string; email: EmailMessage };

export const STATUS_LABELS: Record<LeaseStatus, string> = {
  nieuw: "Nieuw",
  bekeken: "Bekeken",
  gereageerd: "Gereageerd",
};

/** Newest first; at the same moment the receipt comes last. */
export function mergeTimeline(history: LeadHistoryEntry[], emails: EmailMessage[]): TimelineItem[] {
  const items: TimelineItem[] = [
    ...history,
    ...emails.map((email) => ({ kind: "email" as const, at: email.sentAt ?? email.createdAt, email })),
  ];
  const rank = (item: TimelineItem) => (item.kind === "received" ? 1 : 0);
  return items
    .map((item, index) => ({ item, index, ms: Date.parse(item.at) }))
    .sort((a, b) => b.ms - a.ms || rank(a.item) - rank(b.item) || a.index - b.index)
    .map(({ item }) => item);
}

/** The row's heading, in the panel's Dutch. */
export function timelineTitle(item: TimelineItem): string {
  switch (item.kind) {
    case "received":
      return "Aanvraag ontvangen";
    case "status":
      return item.from
        ? `Status gewijzigd van ${STATUS_LABELS[item.from]} naar ${STATUS_LABELS[item.to]} door ${item.by}`
        : `Status gewijzigd naar ${STATUS_LABELS[item.to]} door ${item.by}`;
    case "note":
      return `Notitie van ${item.note.author}${item.note.updatedAt ? " (bewerkt)" : ""}`;
    case "email":
      return `E-mail verstuurd aan ${item.email.recipientEmail}`;
  }
}

/** A stable React key per row. */
export function timelineKey(item: TimelineItem): string {
  if (item.kind === "note") return `note-${item.note.id}`;
  if (item.kind === "email") return `email-${item.email.id}`;
  return `${item.kind}-${item.at}`;
}
