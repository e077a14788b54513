import {
  euroText,
  type LeadAttribution,
  type PrivacyDocumentEntry,
  type PrivacyExport,
  type PrivacyKind,
  type PrivacyRecord,
} from "@lease/contracts";

// The export of people's data as a document for the person: Dutch headings and field
// names, dates as a person reads them, only what is about them. The services answer rows as stored;
// this is the one place that decides what of a row a person sees. Internal ids, hashes, keys and
// job rows are left out, and the explanation at the top says so.

const PARTS = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "Europe/Amsterdam",
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** "28 november 2026 14:03" (Amsterdam time); null for no date. */
export function dutchDateTime(value: unknown): string | null {
  if (typeof value !== "string" || value === "") return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const part = Object.fromEntries(PARTS.formatToParts(date).map((p) => [p.type, p.value]));
  return `${part.day} ${part.month} ${part.year} ${part.hour}:${part.minute}`;
}

/** "28 november 2026" for a calendar day ("2026-11-28"). */
function dutchDay(value: unknown): string | null {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  return dutchDateTime(`${value}T12:00:00Z`)!.replace(/ \d{2}:\d{2}$/, "");
}

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? value : null;

const STATUS: Record<string, string> = {
  nieuw: "Nieuw",
  bekeken: "Bekeken",
  gereageerd: "Gereageerd",
  offerte: "Offerte",
  getekend: "Getekend",
  verloren: "Verloren",
};
const status = (value: unknown) => (typeof value === "string" ? (STATUS[value] ?? value) : null);
const euros = (cents: unknown) => (typeof cents === "number" ? euroText(cents) : null);
const months = (value: unknown) => (typeof value === "number" ? value : null);

/** The road to a contract as a request or a change holds it (the broker's commission is not the person's). */
const stage = (row: PrivacyRecord, note: unknown): PrivacyDocumentEntry => ({
  "Maandbedrag (offerte of contract)": euros(row.monthly_amount_cents),
  "Looptijd contract (maanden)": months(row.contract_term),
  "Reden verloren": text(row.lost_reason),
  "Toelichting verloren": text(note),
});

const SENT_STATUS: Record<string, string> = {
  sent: "Verzonden",
  queued: "Nog niet verzonden",
  sending: "Wordt verzonden",
  failed_retryable: "Nog niet verzonden (nieuwe poging volgt)",
  failed: "Niet verzonden",
};

const INBOX_KIND: Record<string, string> = {
  lease_request: "Offerteaanvraag via de website",
  contact_form: "Bericht via het contactformulier",
};

export const PRIVACY_EXPLANATION =
  "Dit overzicht bevat alle gegevens die over dit e-mailadres zijn opgeslagen: de offerteaanvragen " +
  "en contactberichten met dit adres, de e-mails van en aan dit adres (en de meldingen aan het bedrijf " +
  "over deze aanvragen), de notities en statuswijzigingen bij de aanvragen en de herkomst van het " +
  "websitebezoek waarmee een aanvraag werd verstuurd. Tijden zijn Nederlandse tijd. Technische " +
  "gegevens (interne nummers, wachtrijregels van de verwerking) zijn weggelaten: ze bevatten niets " +
  "anders dan wat hier staat.";

function leaseRequest(row: PrivacyRecord): PrivacyDocumentEntry {
  return {
    "Ontvangen op": dutchDateTime(row.created_at),
    Bedrijfsnaam: text(row.company_name),
    "E-mailadres": text(row.email),
    Telefoonnummer: text(row.contact_number),
    "Link naar de auto": text(row.car_url),
    "Looptijd (maanden)": months(row.lease_term),
    Bericht: text(row.message),
    Status: status(row.status),
    ...stage(row, row.lost_note),
    "Opvolgen op": dutchDay(row.follow_up_on),
  };
}

function contactMessage(row: PrivacyRecord): PrivacyDocumentEntry {
  return {
    "Ontvangen op": dutchDateTime(row.created_at),
    Naam: text(row.name),
    "E-mailadres": text(row.email),
    Telefoonnummer: text(row.phone),
    Bericht: text(row.message),
  };
}

/** "Offerteaanvraag van 28 november 2026 14:03": what a note or a change belongs to. */
function requestLabel(requests: PrivacyRecord[], id: unknown): string | null {
  const request = requests.find((r) => r.id === id);
  return request ? `Offerteaanvraag van ${dutchDateTime(request.created_at)}` : null;
}

function inboxEmail(row: PrivacyRecord): PrivacyDocumentEntry {
  const from = text(row.sender_name);
  const address = text(row.sender_email);
  return {
    Datum: dutchDateTime(row.sent_at) ?? dutchDateTime(row.created_at),
    Soort: INBOX_KIND[String(row.message_type)] ?? "Ontvangen e-mail",
    Van: from && address ? `${from} <${address}>` : (address ?? from),
    Aan: text(row.recipient_email),
    Onderwerp: text(row.subject),
    Tekst: text(row.message_body),
    ...(Array.isArray(row.attachments) && row.attachments.length > 0
      ? { Bijlagen: (row.attachments as PrivacyRecord[]).map(attachmentLine).join("; ") }
      : {}),
  };
}

/** "loonstrook.pdf (application/pdf, 12 kB)": an attachment as the export lists it. */
function attachmentLine(a: PrivacyRecord): string {
  const kb = Math.max(1, Math.round(Number(a.size_bytes) / 1024));
  return `${text(a.file_name) ?? "bijlage"} (${text(a.content_type) ?? "onbekend type"}, ${kb} kB)`;
}

/**
 * A line that links into the admin panel (the company's notification: "Bekijk de aanvraag in het
 * beheer: https://…/admin?tab=aanvragen&lead=<id>"): for staff only, and it carries an internal id,
 * so the person's document leaves it out.
 */
const PANEL_LINK_LINE = /^.*https?:\/\/\S*\/admin\?\S*.*(?:\r?\n|$)/gm;

function sentEmail(row: PrivacyRecord): PrivacyDocumentEntry {
  const body = text(row.text_body);
  return {
    Datum: dutchDateTime(row.sent_at) ?? dutchDateTime(row.created_at),
    Soort:
      row.kind === "notification"
        ? "Melding aan het bedrijf over een aanvraag"
        : "E-mail aan de persoon verstuurd",
    Aan: text(row.to_email),
    Onderwerp: text(row.subject),
    Tekst: body && row.kind === "notification" ? body.replace(PANEL_LINK_LINE, "").trimEnd() : body,
    Verzendstatus: typeof row.status === "string" ? (SENT_STATUS[row.status] ?? row.status) : null,
  };
}

function origin(conversion: PrivacyRecord, leads: PrivacyRecord[]): PrivacyDocumentEntry {
  const lead = leads.find((l) => l.id === conversion.lead_id);
  const a = (lead?.attribution ?? null) as LeadAttribution | null;
  return {
    "Aanvraag verstuurd op": dutchDateTime(conversion.occurred_at),
    Soort: conversion.kind === "contact" ? "Contactbericht" : "Offerteaanvraag",
    Kanaal: a?.channel ?? null,
    Bron: text(a?.source),
    Medium: text(a?.medium),
    Campagne: text(a?.campaign),
    Zoekterm: text(a?.term),
    Advertentie: text(a?.content),
    "Via een betaalde advertentie": a ? (a.paidClick ? "ja" : "nee") : null,
    "Verwijzende website": text(a?.referrerHost),
    "Eerste pagina": text(a?.landingPage),
    "Eerste bezoek": dutchDateTime(a?.firstSeenAt),
    "Bekeken pagina's": a && a.pages.length > 0 ? a.pages.join(" > ") : null,
  };
}

/** The person's document from the rows each service holds. */
export function privacyDocument(
  email: string,
  data: Record<PrivacyKind, PrivacyRecord[]>,
  now = new Date(),
): PrivacyExport {
  const requests = data.leaseRequests;
  const time = (value: unknown) => (typeof value === "string" ? Date.parse(value) || 0 : 0);
  const by = (field: string) => (a: PrivacyRecord, b: PrivacyRecord) => time(a[field]) - time(b[field]);
  const emails = [
    ...data.inboxEmails.map((row) => ({ at: time(row.sent_at ?? row.created_at), entry: inboxEmail(row) })),
    ...data.sentEmails.map((row) => ({ at: time(row.sent_at ?? row.created_at), entry: sentEmail(row) })),
  ].sort((a, b) => a.at - b.at);
  return {
    Persoonsgegevens: email,
    "Opgesteld op": dutchDateTime(now.toISOString())!,
    Toelichting: PRIVACY_EXPLANATION,
    Offerteaanvragen: [...requests].sort(by("created_at")).map(leaseRequest),
    Contactberichten: [...data.contactMessages].sort(by("created_at")).map(contactMessage),
    "E-mails": emails.map((e) => e.entry),
    Notities: [...data.notes].sort(by("created_at")).map((row) => ({
      "Geschreven op": dutchDateTime(row.created_at),
      "Gewijzigd op": dutchDateTime(row.updated_at),
      Bij: requestLabel(requests, row.lease_request_id),
      Tekst: text(row.body),
    })),
    Statuswijzigingen: [...data.statusChanges].sort(by("changed_at")).map((row) => ({
      Datum: dutchDateTime(row.changed_at),
      Bij: requestLabel(requests, row.lease_request_id),
      Van: status(row.from_status),
      Naar: status(row.to_status),
      ...stage(row, row.note),
    })),
    Bezoekherkomst: [...data.conversions]
      .sort(by("occurred_at"))
      .map((row) => origin(row, [...requests, ...data.contactMessages])),
  };
}
