import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import type { CampaignReport, CampaignReportRow, CreateLeaseRequestResponse } from "@lease/contracts";
import {
  assertEqual,
  isApiRequest,
  waitFor,
  ADMIN_USERNAME,
  DESKTOP_CHROME_UA,
  type AdminWorld,
} from "../fixtures";
import { entryArgs } from "../../../scripts/lib/ts-entry.mjs";
import { REPO_ROOT } from "../world";

const WAIT_MS = 10_000;

/** Today in Amsterdam as the panel and the API name a day: "2026-03-02". */
export const amsterdamToday = () =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(new Date());

/**
 * Waits for the one visible notice to carry this title (and description, when given). With a
 * description it waits for both: an earlier notice of the same title (a follow-up day set, then
 * cleared) may still show for a moment before the new one replaces it.
 */
export async function expectNotice(page: Page, title: string, description?: string): Promise<Locator> {
  const notice = page.getByTestId("notice");
  const titled = notice.filter({ hasText: title });
  if (description === undefined) {
    await titled.waitFor({ timeout: WAIT_MS });
    return notice;
  }
  const said = async () => {
    const text = (await titled.isVisible()) ? await notice.innerText() : "";
    return { ok: text.includes(description), text };
  };
  let last = "";
  await waitFor(
    async () => {
      const { ok, text } = await said();
      last = text;
      return ok;
    },
    WAIT_MS,
    `notice "${title}"`,
  ).catch(() => {
    throw new Error(`notice "${title}" should say "${description}", got "${last}"`);
  });
  return notice;
}

export async function dismissNotice(page: Page): Promise<void> {
  const close = page.getByRole("button", { name: "Melding sluiten" });
  // A notice also closes itself after a while, possibly between the check and the click: gone is
  // as good as dismissed, and one still there after the click fails the wait below.
  if (await close.isVisible()) await close.click({ timeout: 2000 }).catch(() => undefined);
  await close.waitFor({ state: "hidden" });
}

/** Opens a dashboard tab as a person would: the tab, or on a phone the "Tabblad" menu. */
export async function openTab(page: Page, name: string): Promise<void> {
  const menu = page.getByLabel("Tabblad", { exact: true });
  if (await menu.isVisible()) await menu.selectOption({ label: name });
  else await page.getByRole("tab", { name, exact: true }).click();
}

/** The number shown in one of the counter tiles. */
export async function counter(page: Page, label: string): Promise<string> {
  return (await page.getByTestId(`counter-${label}`).getByTestId("counter-value").innerText()).trim();
}

export async function waitForCounter(page: Page, label: string, expected: string): Promise<void> {
  await page
    .getByTestId(`counter-${label}`)
    .getByTestId("counter-value")
    .filter({ hasText: new RegExp(`^${expected}$`) })
    .waitFor({ timeout: WAIT_MS });
}

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel("Gebruikersnaam").fill(username);
  await page.getByLabel("Wachtwoord").fill(password);
  await page.getByRole("button", { name: "Inloggen" }).click();
}

/** Opens a lead from the list (the Lease Aanvragen tab) in its detail; answers the detail. */
export async function openLead(page: Page, companyName: string): Promise<Locator> {
  await page.getByTestId("lease-item").filter({ hasText: companyName }).click();
  const detail = page.getByTestId("lease-detail");
  await detail.getByRole("heading", { name: companyName }).waitFor();
  return detail;
}

/**
 * Staff move the open lead to a stage in its detail: choose it ("Offerte verstuurd", "Contract
 * getekend", "Verloren"), fill in its fields by label (a list's option by its text), and save; waits
 * for the notice and the stage's badge ("Offerte", "Getekend", "Verloren"). Answers the stage form.
 */
export async function saveStage(
  page: Page,
  detail: Locator,
  stage: string,
  fields: Record<string, string>,
  badge: string,
): Promise<Locator> {
  const form = detail.getByTestId("lead-stage");
  await form.getByLabel("Nieuwe fase").selectOption({ label: stage });
  for (const [label, value] of Object.entries(fields)) {
    const field = form.getByLabel(label);
    if ((await field.evaluate((element) => element.tagName)) === "SELECT") await field.selectOption(value);
    else await field.fill(value);
  }
  await form.getByRole("button", { name: "Fase opslaan" }).click();
  await expectNotice(page, "Fase Opgeslagen");
  await dismissNotice(page);
  await detail.getByTestId("badge").filter({ hasText: badge }).waitFor();
  return form;
}

/**
 * Staff import an ad platform's spend export in Campagnes (the tab open): choose the file, press
 * Importeren. Answers where the outcome is shown.
 */
export async function importSpendExport(page: Page, fileName: string, csv: string): Promise<Locator> {
  await page.getByLabel("Export van Meta, TikTok, Snapchat of Google Ads (csv)").setInputFiles({
    name: fileName,
    mimeType: "text/csv",
    buffer: Buffer.from(csv),
  });
  await page.getByRole("button", { name: "Importeren" }).click();
  return page.getByTestId("spend-import-result");
}

export interface LeadFields {
  email: string;
  companyName?: string;
  carUrl?: string;
  contactNumber?: string;
  leaseTerm?: number;
  /** The visitor-session id a consenting visitor's form sends (attribution). */
  sessionId?: string;
  /** The page's marketing consent, and with it the landing URL's click ids. */
  marketingConsent?: boolean;
  clickIds?: Record<string, string | number>;
}

/** A quote request through the public API, as the site's form sends it; answers its id. */
export async function postLead(stack: { baseUrl: string }, lead: LeadFields): Promise<string> {
  const answer = await fetch(`${stack.baseUrl}/api/lease-requests`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: stack.baseUrl },
    body: JSON.stringify({
      carUrl: "https://www.autoscout24.nl/aanbod/e2e",
      contactNumber: "0611223344",
      ...lead,
    }),
  });
  assertEqual(answer.status, 201, `quote of ${lead.email} accepted`);
  return ((await answer.json()) as { id: string }).id;
}

/**
 * A visitor's quote through the home page's form, the page already at it: types the fields in,
 * sends it and waits for the thanks. Answers the server's answer: the quote's id and, with
 * marketing consent, the event id that the page's pixels send too.
 */
export async function sendQuoteForm(
  page: Page,
  lead: { email: string; companyName: string; carUrl?: string; contactNumber?: string },
): Promise<CreateLeaseRequestResponse> {
  await page.locator("#aanvraag-auto").fill(lead.carUrl ?? "https://www.autoscout24.nl/aanbod/e2e");
  await page.locator("#aanvraag-telefoon").fill(lead.contactNumber ?? "0611223344");
  await page.locator("#aanvraag-email").fill(lead.email);
  await page.locator("#aanvraag-bedrijf").fill(lead.companyName);
  const answered = page.waitForResponse((response) =>
    isApiRequest(response.request(), "/api/lease-requests"),
  );
  await page.getByRole("button", { name: "Aanvraag Versturen" }).click();
  const response = await answered;
  assertEqual(response.status(), 201, `the quote of ${lead.email} accepted`);
  await page.getByTestId("aanvraag-succes").waitFor({ timeout: WAIT_MS });
  return (await response.json()) as CreateLeaseRequestResponse;
}

/**
 * An address of a visitor's own (in 198.18.0.0/15, kept for benchmarks), for
 * `world.open(…, { address })` and visitBeacon: new campaign values are stored by name at first
 * sight only for the first few of an address block a day (services/tracking/src/domain/admission.ts),
 * and the tests of a worker's stack otherwise all visit from 127.0.0.1, so one file's campaigns
 * would spend the next file's allowance.
 */
export function visitorAddress(): string {
  const [a, b, c] = randomBytes(3);
  return `198.${18 + (a! % 2)}.${b}.${1 + (c! % 254)}`;
}

/** The visit beacon a consenting visitor's browser sends for `page` (its visitor-session id). */
export async function visitBeacon(
  stack: { baseUrl: string },
  sessionId: string,
  page: string,
  address?: string,
): Promise<void> {
  const beacon = await fetch(`${stack.baseUrl}/api/track/visit`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: stack.baseUrl,
      "user-agent": DESKTOP_CHROME_UA,
      ...(address ? { "x-forwarded-for": address } : {}),
    },
    body: JSON.stringify({ sessionId, page, referrer: "" }),
  });
  assertEqual(beacon.status, 204, `the visit beacon of ${page}`);
}

/**
 * A call to the admin API as the admin signed in on `page` (its cookie, its origin), for what a
 * test arranges rather than tests; answers the status and the parsed body (null when none). A
 * state change needs a body (`{}` at least): the API refuses one without a JSON content type (415).
 */
export async function adminApi<T = unknown>(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const answer = await fetch(path, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      return { status: answer.status, body: text ? JSON.parse(text) : null };
    },
    { method, path, body },
  );
}

/** A campaign's row in today's campaign report (what the Campagnes tab reads); undefined: none yet. */
export async function todaysReportRow(page: Page, campaign: string): Promise<CampaignReportRow | undefined> {
  const today = amsterdamToday();
  const report = await adminApi<CampaignReport>(
    page,
    "GET",
    `/api/admin/campaign-report?from=${today}&to=${today}`,
  );
  return report.body.rows.find((r) => r.campaign === campaign);
}

/** Saves company settings (details, mail provider, switches) as the admin signed in on `page`. */
export async function saveSettings(page: Page, settings: Record<string, unknown>): Promise<void> {
  const { status, body } = await adminApi(page, "PUT", "/api/admin/company-settings", settings);
  assertEqual(status, 200, `settings saved (${JSON.stringify(body)})`);
}

/** Waits until tracking has counted these quotes as conversions (and answered their Herkomst). */
export async function converted(world: Pick<AdminWorld, "sql">, ids: string[]): Promise<void> {
  await waitFor(
    async () =>
      (
        await world.sql.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM tracking.conversions WHERE lead_id = ANY($1::uuid[])",
          [ids],
        )
      ).rows[0]!.n === ids.length,
    20_000,
    "tracking to count the quotes",
  );
}

/** The panel's tabs: the `tab` parameter each has in the URL, and its label. */
export const TABS = [
  ["analytics", "Analytics"],
  ["aanvragen", "Lease Aanvragen"],
  ["reactietijden", "Reactietijden"],
  ["campagnes", "Campagnes"],
  ["bedrijf", "Bedrijfsgegevens"],
  ["theme", "Theme Instellingen"],
  ["email", "E-mail Instellingen"],
  ["inbox", "E-mail Inbox"],
  ["pixels", "Social Media Pixels"],
  ["gebruikers", "Gebruikers"],
  ["logboek", "Logboek"],
] as const;

/** The label of the selected tab. */
export const selectedTab = (page: Page) => page.locator('[role="tab"][aria-selected="true"]').innerText();

/** The open tab's `tab` parameter in the URL (none for Analytics, the default). */
export const tabParam = (page: Page) => new URL(page.url()).searchParams.get("tab");

/** A signed-in admin on a loaded dashboard, in a browser of the test's own. */
export async function signedInPage(world: AdminWorld): Promise<Page> {
  return (await world.signedIn()).page;
}

/**
 * A signed-in admin in a browser that caches as a person's does. (Playwright turns the HTTP cache
 * off in a context with request routing, and world.open routes every other host away; the site
 * loads nothing from other hosts without consent, so none is needed here.)
 */
export async function cachingBrowser(world: AdminWorld): Promise<Page> {
  const context = await world.newContext({ locale: "nl-NL", timezoneId: "Europe/Amsterdam" });
  const page = await context.newPage();
  await page.goto(`${world.baseUrl}/admin-login`);
  await signIn(page, ADMIN_USERNAME, world.password);
  await page.getByTestId("welkom").waitFor();
  return page;
}

/** The company details replies are written with and the public site shows. */
export const COMPANY = { name: "Lease Centrum E2E", phone: "020 765 4321", email: "info@lease-e2e.nl" };

/** A quote of the test's own: its company name and address are found only in its test. */
export function newLead() {
  const tag = randomBytes(3).toString("hex");
  return {
    carUrl: `https://www.autoscout24.nl/aanbod/tesla-model-3-${tag}`,
    phone: "0612345678",
    email: `klant.${tag}@example.nl`,
    company: `E2E Transport ${tag} BV`,
  };
}
export type Lead = ReturnType<typeof newLead>;

/** Posts a newLead() quote, for 48 months, as the public form does; answers its id. */
export const postNewLead = (world: AdminWorld, lead: Lead) =>
  postLead(world, {
    carUrl: lead.carUrl,
    contactNumber: lead.phone,
    email: lead.email,
    companyName: lead.company,
    leaseTerm: 48,
  });

/** Counting from zero: the stack's quote requests removed (their notes and history go with them). */
export const removeAllLeads = (world: AdminWorld) => world.sql.query("DELETE FROM leads.lease_requests");

/** A quote from `email` (and `companyName`), without a phone number; answers its id. */
export const postLeadFrom = (world: AdminWorld, email: string, companyName?: string) =>
  postLead(world, { carUrl: "https://www.autoscout24.nl/aanbod/panel-e2e", email, companyName });

/** The mail provider and the company's address the e-mail about each new request goes to. */
export const ALERT_MAIL = {
  key: "SG.staff-e2e-key-0123456789",
  sender: "noreply@staff-e2e.nl",
  company: "verkoop@staff-e2e.nl",
};

/** A signed-in admin in a browser of the test's own, with SendGrid and the company's e-mail set. */
export async function signedInWithAlerts(world: AdminWorld): Promise<Page> {
  const { page } = await world.signedIn();
  // A provider, the company's address and the site's own address (the origin of the e-mail's link).
  await saveSettings(page, {
    sendgridApiKey: ALERT_MAIL.key,
    fromEmailAddress: ALERT_MAIL.sender,
    emailAddress: ALERT_MAIL.company,
    website: world.baseUrl,
    notifyCompanyEmail: true,
  });
  return page;
}

/** A quote from `email` and `companyName` with a phone number; answers its id. */
export const postLeadWithPhone = (world: AdminWorld, email: string, companyName: string) =>
  postLead(world, {
    carUrl: "https://www.autoscout24.nl/aanbod/staff-e2e",
    contactNumber: "0612121212",
    email,
    companyName,
  });

/** One line of visit history, as `npm run tracking:import` reads it (NDJSON). */
export interface HistoryLine {
  id: string;
  at: string;
  session: string;
  page: string;
}

/**
 * Imports visit history into the stack's database the way an operator does (`npm run
 * tracking:import`, the CLI in its own process); its lines have ids, so importing again adds nothing.
 */
export async function importHistoryLines(
  world: Pick<AdminWorld, "sql">,
  lines: HistoryLine[],
): Promise<void> {
  const imported = spawnSync(process.execPath, await entryArgs("services/tracking/src/cli/import.ts"), {
    cwd: REPO_ROOT,
    input: lines.map((line) => JSON.stringify(line)).join("\n"),
    env: { ...process.env, DATABASE_URL: world.sql.options.connectionString },
    encoding: "utf8",
  });
  assertEqual(imported.status, 0, `tracking:import: ${imported.stderr}`);
}
