import { EMAIL_TYPE_LABELS, type EmailMessage } from "@lease/contracts";
import { formatAmsterdamDateTime } from "./format";

/** Type label of an inbox e-mail; anything unknown is "Algemene E-mail". */
export function emailTypeLabel(type: string): string {
  return (EMAIL_TYPE_LABELS as Record<string, string>)[type] ?? EMAIL_TYPE_LABELS.other;
}

/**
 * Delivery badge of outgoing e-mails, their real state; received e-mails have none. A queued
 * e-mail with a failure reason is waiting for a new attempt after a failed one.
 */
export function deliveryBadge(
  status: EmailMessage["deliveryStatus"],
  failureReason: string | null = null,
): { label: string; tone: "yellow" | "green" | "red" } | null {
  if (status === "queued" && failureReason) return { label: "Nog niet verzonden", tone: "yellow" };
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

/** What that time is: only an e-mail that was sent says "Verzonden". */
export function emailTimeLabel(email: Pick<EmailMessage, "deliveryStatus">): string {
  if (email.deliveryStatus === "received") return "Ontvangen";
  return email.deliveryStatus === "sent" ? "Verzonden" : "Geschreven";
}

/** An outgoing e-mail not sent yet (queued, or waiting for a new attempt) can still be cancelled. */
export const isCancellable = (email: Pick<EmailMessage, "deliveryStatus">) =>
  email.deliveryStatus === "queued";

/**
 * The sender's phone number, where the message holds it: the "Telefoon:" line the mailer writes
 * into a quote request's or contact message's entry (the number as the form validated it).
 */
export function senderPhone(email: Pick<EmailMessage, "messageType" | "messageBody">): string | null {
  if (email.messageType !== "lease_request" && email.messageType !== "contact_form") return null;
  const line = /^Telefoon: *(\+?[\d ()-]{6,40})$/m.exec(email.messageBody);
  return line?.[1]?.trim() || null;
}

/** "Re: <subject>" once, however often the conversation went back and forth. */
export const replySubject = (subject: string) =>
  /^re:/i.test(subject.trim()) ? subject.trim() : `Re: ${subject.trim()}`;

/** The compose window (a new window): for a lease request, or as a reply to an e-mail. */
export function openComposeWindow(query: { requestId: string } | { replyTo: string }): void {
  const [key, value] = Object.entries(query)[0]!;
  window.open(
    `/email-compose?${key}=${encodeURIComponent(value)}`,
    "_blank",
    "noopener,width=900,height=800",
  );
}

/** An answer's body: room to write, then "Op <datum> schreef <afzender>:" and the e-mail quoted. */
export function quotedReply(
  email: Pick<EmailMessage, "senderName" | "senderEmail" | "messageBody" | "sentAt" | "createdAt">,
): string {
  const who = email.senderName ? `${email.senderName} <${email.senderEmail}>` : email.senderEmail;
  const quoted = email.messageBody
    .trimEnd()
    .split(/\r?\n/)
    .map((line) => `> ${line}`.trimEnd())
    .join("\n");
  return `\n\nOp ${formatAmsterdamDateTime(email.sentAt ?? email.createdAt)} schreef ${who}:\n${quoted}\n`;
}
