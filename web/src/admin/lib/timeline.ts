import {
  CALL_OUTCOME_LABELS,
  type EmailMessage,
  type LeadEmail,
  type LeadHistoryEntry,
  type LeaseStatus,
} from "@lease/contracts";
import { formatEuro } from "./format";

/**
 * One row of a lead's timeline: the leads service's history (with the customer's replies) plus the
 * e-mails sent to the lead.
 */
export type TimelineItem =
  | Exclude<LeadHistoryEntry, { kind: "email" }>
  | { kind: "email"; at: string; email: EmailMessage }
  | { kind: "reply"; at: string; email: LeadEmail };

export const STATUS_LABELS: Record<LeaseStatus, string> = {
  nieuw: "Nieuw",
  bekeken: "Bekeken",
  gereageerd: "Gereageerd",
  offerte: "Offerte",
  getekend: "Getekend",
  verloren: "Verloren",
};

/** What a stage change set: "Maandbedrag € 349,50", "Commissie € 1.200,00 · Looptijd 48 maanden", "Reden: te duur". */
export function timelineDetail(item: TimelineItem): string | null {
  if (item.kind !== "status") return null;
  const parts: string[] = [];
  if (item.commission !== null) parts.push(`Commissie ${formatEuro(item.commission)}`);
  if (item.monthlyAmount !== null) parts.push(`Maandbedrag ${formatEuro(item.monthlyAmount)}`);
  if (item.contractTerm !== null) parts.push(`Looptijd ${item.contractTerm} maanden`);
  if (item.lostReason) parts.push(`Reden: ${item.lostReason}${item.note ? ` (${item.note})` : ""}`);
  return parts.length ? parts.join(" · ") : null;
}

/** Newest first; at the same moment the receipt comes last. */
export function mergeTimeline(history: LeadHistoryEntry[], emails: EmailMessage[]): TimelineItem[] {
  const items: TimelineItem[] = [
    // The sent mail below carries the e-mails sent (with their retry and cancel); of the history's
    // own e-mail entries the customer's replies are shown.
    ...history.flatMap((entry): TimelineItem[] =>
      entry.kind !== "email"
        ? [entry]
        : entry.email.direction === "in"
          ? [{ kind: "reply", at: entry.at, email: entry.email }]
          : [],
    ),
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
    case "reply":
      return `Antwoord van ${item.email.fromName ? `${item.email.fromName} <${item.email.fromEmail}>` : item.email.fromEmail}`;
    case "owner":
      return ownerTitle(item);
    case "call":
      return `${CALL_OUTCOME_LABELS[item.call.outcome]}: gebeld door ${item.call.by}`;
  }
}

function ownerTitle(item: Extract<TimelineItem, { kind: "owner" }>): string {
  if (!item.owner) return "Niet meer toegewezen: de eigenaar is uitgeschakeld of verwijderd";
  const who = `Toegewezen aan ${item.owner.username}`;
  if (item.reason === "manual" && item.by) return `${who} door ${item.by}`;
  if (item.reason === "handover") return `${who} (de vorige eigenaar is uitgeschakeld of verwijderd)`;
  return who;
}

/** A stable React key per row. */
export function timelineKey(item: TimelineItem): string {
  if (item.kind === "note") return `note-${item.note.id}`;
  if (item.kind === "call") return `call-${item.call.id}`;
  if (item.kind === "email" || item.kind === "reply") return `email-${item.email.id}`;
  return `${item.kind}-${item.at}`;
}
