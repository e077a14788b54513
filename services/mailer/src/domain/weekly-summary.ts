import {
  dutchDay,
  dutchDuration,
  euroText,
  type CampaignReport,
  type CampaignReportRow,
  type InternalWeeklySummary,
  type ResponseFigures,
} from "@lease/contracts";
import { amsterdam, escapeHtml, oneLine, type RenderedMail } from "./templates";

// The weekly summary e-mail to an admin (Monday 08:00): last week's quote requests and how fast
// they were answered against the promise, the admin's own open and late leads with links to the
// panel, and the campaigns with the lowest cost per lead and per contract. Only what staff see in
// the panel: a lead is named as the list names it; no address, phone or message.

/** Campaigns named per list (lowest cost first). */
export const WEEKLY_CAMPAIGNS_LISTED = 3;

/** What the e-mail says of the campaigns: the cheapest ones, or why there are none. */
export type WeeklyCampaigns =
  | { kind: "unavailable" }
  | { kind: "no-spend" }
  | { kind: "figures"; perLead: CampaignReportRow[]; perContract: CampaignReportRow[] };

/** The campaigns with spend and the lowest cost per lead and per contract (null: the report could not be read). */
export function cheapestCampaigns(report: CampaignReport | null): WeeklyCampaigns {
  if (!report) return { kind: "unavailable" };
  if (report.totals.spend <= 0) return { kind: "no-spend" };
  const lowest = (cost: (row: CampaignReportRow) => number | null) =>
    report.rows
      .filter((row) => cost(row) !== null)
      .sort((a, b) => cost(a)! - cost(b)! || b.leads - a.leads || a.campaign.localeCompare(b.campaign))
      .slice(0, WEEKLY_CAMPAIGNS_LISTED);
  return {
    kind: "figures",
    perLead: lowest((row) => row.costPerLead),
    perContract: lowest((row) => row.costPerContract),
  };
}

export interface WeeklySummaryMail {
  username: string;
  summary: InternalWeeklySummary;
  campaigns: WeeklyCampaigns;
  /** The panel's page of a lead, and of a tab ("aanvragen", "reactietijden", "campagnes"). */
  leadLink: (source: "lease_request" | "contact_form", id: string) => string | undefined;
  tabLink: (tab: string) => string | undefined;
}

const percent = (share: number) => `${Math.round(share * 100)}%`;
const euros = (amount: number) => euroText(Math.round(amount * 100));
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const weekNumber = ({ week }: InternalWeeklySummary) => Number(week.slice(6));

/** "week 13 (23 maart 2026 t/m 29 maart 2026)". */
const weekTitle = (summary: InternalWeeklySummary) =>
  `week ${weekNumber(summary)} (${dutchDay(summary.from)} t/m ${dutchDay(summary.to)})`;

/** The promise as the site says it: "24 uur (klokuren)", "90 min (werkuren)". */
const promiseText = ({ quoteMinutes, quoteBasis }: InternalWeeklySummary["promise"]) =>
  `${quoteMinutes % 60 === 0 ? `${quoteMinutes / 60} uur` : dutchDuration(quoteMinutes)} (${quoteBasis === "clock" ? "klokuren" : "werkuren"})`;

/** The lines of one set of figures, times in the promise's own hours. */
function figureLines(f: ResponseFigures, promise: InternalWeeklySummary["promise"]): string[] {
  if (f.leads === 0) return ["Geen aanvragen."];
  const clock = promise.quoteBasis === "clock";
  const median = clock ? f.medianClockMinutes : f.medianMinutes;
  const p90 = clock ? f.p90ClockMinutes : f.p90Minutes;
  const lines = [
    `Aanvragen: ${f.leads}, beantwoord: ${f.answered}, nooit beantwoord: ${f.unanswered}`,
    f.withinPromiseShare === null
      ? `Binnen de belofte van ${promiseText(promise)}: nog niet te zeggen`
      : `Binnen de belofte van ${promiseText(promise)}: ${percent(f.withinPromiseShare)} (${f.withinPromise} van ${f.withinPromise + f.late})`,
  ];
  if (median !== null && p90 !== null)
    lines.push(
      `Reactietijd: mediaan ${dutchDuration(median)}, 90% binnen ${dutchDuration(p90)} (${clock ? "klokuren" : "werkuren"})`,
    );
  return lines;
}

const campaignName = (row: CampaignReportRow) => `${row.campaign} (${row.source} / ${row.medium})`;

function campaignLines(campaigns: WeeklyCampaigns): string[] {
  if (campaigns.kind === "unavailable")
    return ["De campagnecijfers konden nu niet worden opgehaald; bekijk ze in het beheer onder Campagnes."];
  if (campaigns.kind === "no-spend")
    return [
      "Voor deze week zijn geen advertentiekosten ingevoerd, dus de kosten per aanvraag en per contract zijn niet te berekenen. Voer ze in onder Campagnes.",
    ];
  const list = (rows: CampaignReportRow[], cost: (r: CampaignReportRow) => number, unit: string) =>
    rows.map((r) => `- ${campaignName(r)}: ${euros(cost(r))} per ${unit} (${euros(r.spend)} uitgegeven)`);
  return [
    "Laagste kosten per aanvraag:",
    ...(campaigns.perLead.length > 0
      ? list(campaigns.perLead, (r) => r.costPerLead!, "aanvraag")
      : ["- Geen campagne met advertentiekosten bracht deze week een aanvraag."]),
    "Laagste kosten per contract:",
    ...(campaigns.perContract.length > 0
      ? list(campaigns.perContract, (r) => r.costPerContract!, "contract")
      : ["- Nog geen campagne met advertentiekosten bracht een contract uit de aanvragen van deze week."]),
  ];
}

function leadLine(lead: InternalWeeklySummary["open"]["leads"][number]): string {
  const what = lead.source === "lease_request" ? "lease aanvraag" : "bericht";
  const when =
    lead.responseDueAt && !lead.answered
      ? `${lead.overdue ? "reageren moest vóór" : "reageren vóór"} ${amsterdam(lead.responseDueAt)}`
      : `ontvangen ${amsterdam(lead.receivedAt)}${lead.answered ? ", gereageerd" : ""}`;
  return `${lead.overdue ? "Te laat: " : ""}${lead.name} (${what}, ${when})`;
}

/** A section: its title and lines, each line with an optional link. */
interface Section {
  title: string;
  lines: { text: string; link?: string }[];
}

export function renderWeeklySummary(mail: WeeklySummaryMail): RenderedMail {
  const { summary } = mail;
  const { open } = summary;
  const plain = (lines: string[]) => lines.map((text) => ({ text }));
  /** A line that is only a link: left out when the panel's address is not known. */
  const linkTo = (text: string, link: string | undefined) => (link ? [{ text, link }] : []);
  const more = open.total - open.leads.length;
  const sections: Section[] = [
    {
      title: "Alle aanvragen",
      lines: [
        ...plain(figureLines(summary.totals, summary.promise)),
        ...linkTo("Het rapport Reactietijden", mail.tabLink("reactietijden")),
      ],
    },
    { title: "Jouw aanvragen", lines: plain(figureLines(summary.own, summary.promise)) },
    {
      title: "Jouw openstaande leads nu",
      lines: [
        {
          text:
            open.total === 0
              ? "Je hebt geen openstaande leads."
              : `${count(open.total, "openstaande lead", "openstaande leads")}, waarvan ${open.late} te laat`,
        },
        ...open.leads.map((lead) => ({ text: leadLine(lead), link: mail.leadLink(lead.source, lead.id) })),
        ...(more > 0
          ? [{ text: `En nog ${more} meer in Lease Aanvragen`, link: mail.tabLink("aanvragen") }]
          : []),
      ],
    },
    {
      title: "Campagnes",
      lines: [
        ...plain(campaignLines(mail.campaigns)),
        ...linkTo("Alle campagnes", mail.tabLink("campagnes")),
      ],
    },
  ];
  const intro = `Hallo ${mail.username},\n\nHier is het overzicht van ${weekTitle(summary)}.`;
  const footer =
    'Je krijgt dit overzicht elke maandag omdat je het hebt gekozen onder "Mijn account" in het beheer.';
  const textLine = ({ text, link }: Section["lines"][number]) => (link ? `${text}: ${link}` : text);
  const text = [intro, ...sections.map((s) => [s.title, ...s.lines.map(textLine)].join("\n")), footer].join(
    "\n\n",
  );
  const htmlLine = ({ text, link }: Section["lines"][number]) =>
    link ? `<a href="${escapeHtml(link)}">${escapeHtml(text)}</a>` : escapeHtml(text);
  const html =
    `<div style="font-family:Arial,sans-serif;font-size:14px;line-height:1.5">` +
    `<p>${escapeHtml(intro).replace(/\n/g, "<br>")}</p>` +
    sections
      .map(
        (s) =>
          `<h2 style="font-size:16px;margin:16px 0 4px">${escapeHtml(s.title)}</h2>` +
          `<p style="margin:0">${s.lines.map(htmlLine).join("<br>")}</p>`,
      )
      .join("") +
    `<p style="color:#555">${escapeHtml(footer)}</p></div>`;
  return {
    subject: oneLine(
      `Weekoverzicht week ${weekNumber(summary)}: ${count(summary.totals.leads, "aanvraag", "aanvragen")}, ` +
        `${count(open.late, "openstaande lead", "openstaande leads")} te laat`,
    ),
    text: `${text}\n`,
    html,
  };
}
