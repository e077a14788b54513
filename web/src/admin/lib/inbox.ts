import { EMAIL_TYPE_LABELS, type EmailMessage } from "@lease/contracts";

/** Type label of an inbox e-mail; anything unknown is "Algemene E-mail". */
export function emailTypeLabel(type: string): string {
  return (EMAIL_TYPE_LABELS as Record<string, string>)[type] ?? EMAIL_TYPE_LABELS.other;
}

/** Delivery badge of outgoing e-mails; received e-mails have none. */
export function deliveryBadge(
  status: EmailMessage["deliveryStatus"],
): { label: string; tone: "yellow" | "green" | "red" } | null {
  if (status === "queued") return { label: "In de wachtrij", tone: "yellow" };
  if (status === "sent") return { label: "Verzonden", tone: "green" };
  if (status === "failed") return { label: "Verzenden mislukt", tone: "red" };
  return null;
}

export const unreadCount = (emails: readonly Pick<EmailMessage, "isRead">[]) =>
  emails.filter((email) => !email.isRead).length;

/** When it was received or sent; a queued e-mail shows when it was written. */
export const emailTime = (email: Pick<EmailMessage, "sentAt" | "createdAt">) =>
  email.sentAt ?? email.createdAt;
