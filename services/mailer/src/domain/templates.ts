import {
  DEFAULT_COMPANY_NAME,
  companyFooterLines,
  type InternalContactMessage,
  type InternalLeaseRequest,
  type PublicCompanySettings,
} from "@lease/contracts";

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** A subject is one header line: line breaks (and other control characters) become spaces. */
export function oneLine(value: string, max = 200): string {
  let out = "";
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    out += code < 0x20 || code === 0x7f ? " " : ch;
  }
  return out.replace(/ {2,}/g, " ").trim().slice(0, max);
}

export const textToHtml = (text: string) =>
  `<div style="font-family:Arial,sans-serif;font-size:14px;line-height:1.5">${escapeHtml(text).replace(/\r?\n/g, "<br>")}</div>`;

// One formatter for the process: toLocaleString with options builds a new one on every call,
// which is most of the cost of rendering a lead.
const AMSTERDAM = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "Europe/Amsterdam",
  dateStyle: "long",
  timeStyle: "short",
});
export const amsterdam = (iso: string) => AMSTERDAM.format(new Date(iso));

export const companyName = (company: PublicCompanySettings) =>
  company.companyName?.trim() || DEFAULT_COMPANY_NAME;

/** The company details the compose page says are added automatically. */
export function companyFooter(company: PublicCompanySettings): string {
  return companyFooterLines(company).join("\n");
}

/** An admin's message with the company details below it. */
export function renderCompose(
  subject: string,
  message: string,
  company: PublicCompanySettings,
): RenderedMail {
  const text = `${message.trimEnd()}\n\n--\n${companyFooter(company)}\n`;
  return { subject: oneLine(subject), text, html: textToHtml(text) };
}

function fieldList(fields: [string, string | number | null | undefined][]): string {
  return fields
    .filter(([, v]) => v !== null && v !== undefined && String(v).trim() !== "")
    .map(([label, v]) => `${label}: ${v}`)
    .join("\n");
}

export function leaseRequestSubject(lead: InternalLeaseRequest): string {
  return oneLine(`Nieuwe lease aanvraag van ${lead.companyName?.trim() || lead.email}`);
}

export function renderLeaseRequest(lead: InternalLeaseRequest): RenderedMail {
  const text = `Er is een nieuwe lease aanvraag binnengekomen via de website.\n\n${fieldList([
    ["Bedrijfsnaam", lead.companyName],
    ["E-mail", lead.email],
    ["Telefoon", lead.contactNumber],
    ["Looptijd", lead.leaseTerm ? `${lead.leaseTerm} maanden` : null],
    ["Auto URL", lead.carUrl],
    ["Bericht", lead.message],
    ["Ontvangen", amsterdam(lead.createdAt)],
  ])}\n`;
  return { subject: leaseRequestSubject(lead), text, html: textToHtml(text) };
}

export function renderContactMessage(msg: InternalContactMessage): RenderedMail {
  const text = `Er is een nieuw bericht binnengekomen via het contactformulier.\n\n${fieldList([
    ["Naam", msg.name],
    ["E-mail", msg.email],
    ["Telefoon", msg.phone],
    ["Bericht", msg.message],
    ["Ontvangen", amsterdam(msg.createdAt)],
  ])}\n`;
  return {
    subject: oneLine(`Nieuw bericht via het contactformulier van ${msg.name}`),
    text,
    html: textToHtml(text),
  };
}

/**
 * A page of the admin panel (`/admin?<query>`) on the site's origin (PUBLIC_ORIGIN), else the
 * company's website setting; undefined when neither is an http(s) URL.
 */
export function adminPanelLink(
  query: Record<string, string>,
  origins: (string | null | undefined)[],
): string | undefined {
  for (const candidate of origins) {
    if (!candidate?.trim()) continue;
    let origin: string;
    try {
      const url = new URL(candidate.trim());
      if (url.protocol !== "https:" && url.protocol !== "http:") continue;
      origin = url.origin;
    } catch {
      continue;
    }
    return `${origin}/admin?${new URLSearchParams(query).toString()}`;
  }
  return undefined;
}

/**
 * Where the admin panel shows a new lead: a quote request opens in the Lease Aanvragen tab
 * (`?tab=aanvragen&lead=<id>`), a contact message in the inbox (adminPanelLink's origins).
 */
export function adminLeadLink(
  source: "lease_request" | "contact_form",
  id: string,
  origins: (string | null | undefined)[],
): string | undefined {
  return adminPanelLink(
    source === "lease_request" ? { tab: "aanvragen", lead: id } : { tab: "inbox" },
    origins,
  );
}

/** "Vandaag op te volgen: 3 aanvragen", for the company's notification; "" when none is due. */
export function followUpsLine(due: number | undefined): string {
  if (!due) return "";
  return `Vandaag op te volgen: ${due} ${due === 1 ? "aanvraag" : "aanvragen"}`;
}

/** The company's notification with the link to the lead in the admin panel below the details. */
export function withAdminLink(
  mail: RenderedMail,
  source: "lease_request" | "contact_form",
  link?: string,
  extra = "",
): RenderedMail {
  const label =
    source === "lease_request" ? "Bekijk de aanvraag in het beheer" : "Bekijk het bericht in het beheer";
  const lines = [link ? `${label}: ${link}` : "", extra].filter(Boolean);
  if (lines.length === 0) return mail;
  const text = `${mail.text}\n${lines.join("\n")}\n`;
  const parts = [
    link ? `<a href="${escapeHtml(link)}">${escapeHtml(label)}</a>` : "",
    extra ? escapeHtml(extra) : "",
  ].filter(Boolean);
  const html = `${mail.html}<p style="font-family:Arial,sans-serif;font-size:14px">${parts.join("<br>")}</p>`;
  return { subject: mail.subject, text, html };
}

export function renderTestEmail(company: PublicCompanySettings): RenderedMail {
  const text = `Dit is een test e-mail. De e-mailinstellingen van ${companyName(company)} werken.\n\n--\n${companyFooter(company)}\n`;
  return { subject: "Test e-mail", text, html: textToHtml(text) };
}

/** To a late lead's owner: whose lead waits, since when, and the link to it. */
export function renderOverdueNotice(notice: {
  username: string;
  source: "lease_request" | "contact_form";
  senderName: string;
  dueAt: string;
  link?: string;
}): RenderedMail {
  const what = notice.source === "lease_request" ? "De lease aanvraag" : "Het bericht";
  const text = `Hallo ${notice.username},\n\n${what} van ${notice.senderName} heeft nog geen reactie gekregen. Reageren moest vóór ${amsterdam(notice.dueAt)}.\n`;
  const mail = {
    subject: oneLine(`Te laat: ${what.toLowerCase()} van ${notice.senderName} wacht op reactie`),
    text,
    html: textToHtml(text),
  };
  return withAdminLink(mail, notice.source, notice.link);
}
