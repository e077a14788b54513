// The admin's work against the real stack: sign in, handle a quote from the public
// site, reply to it through the local SendGrid receiver, change the site's settings and watch a
// live visit. The file has a stack of its own (fixtures.ts) and each test signs in in a browser of
// its own. Each test arranges what it needs (its own quote, settings through the admin API, an
// emptied lead list where it counts from zero), so any one runs alone, in any order:
// `npm run e2e -- admin.e2e.ts -g "compose"`.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Page, Route } from "@playwright/test";
import {
  assert,
  assertEqual,
  waitFor,
  test,
  ADMIN_USERNAME,
  DESKTOP,
  MOBILE,
  type AdminWorld,
} from "./fixtures";
import { entryArgs } from "../../scripts/lib/ts-entry.mjs";
import { REPO_ROOT } from "./world";
import {
  adminApi,
  amsterdamToday,
  counter,
  dismissNotice,
  expectNotice,
  importSpendExport,
  openLead,
  openTab,
  postLead,
  saveSettings,
  saveStage,
  visitBeacon,
  signIn,
  waitForCounter,
} from "./admin/helpers";

const COMPANY = { name: "Lease Centrum E2E", phone: "020 765 4321", email: "info@lease-e2e.nl" };
const MAIL = { key: "SG.e2e-test-key-0123456789", sender: "noreply@lease-e2e.nl" };

/** A quote of the test's own: its company name and address are found only in its test. */
function newLead() {
  const tag = randomBytes(3).toString("hex");
  return {
    carUrl: `https://www.autoscout24.nl/aanbod/tesla-model-3-${tag}`,
    phone: "0612345678",
    email: `klant.${tag}@example.nl`,
    company: `E2E Transport ${tag} BV`,
  };
}
type Lead = ReturnType<typeof newLead>;

const postQuote = (world: AdminWorld, lead: Lead) =>
  postLead(world, {
    carUrl: lead.carUrl,
    contactNumber: lead.phone,
    email: lead.email,
    companyName: lead.company,
    leaseTerm: 48,
  });

/** Counting from zero: the stack's quote requests removed (their notes and history go with them). */
const removeAllLeads = (world: AdminWorld) => world.sql.query("DELETE FROM leads.lease_requests");

/** No mail provider, as on a new installation. */
const clearMailSettings = (page: Page) => saveSettings(page, { sendgridApiKey: "", fromEmailAddress: "" });

/** The company details and mail provider a reply is written and sent with. */
const setCompanyAndMail = (page: Page) =>
  saveSettings(page, {
    companyName: COMPANY.name,
    phoneNumber: COMPANY.phone,
    emailAddress: COMPANY.email,
    sendgridApiKey: MAIL.key,
    fromEmailAddress: MAIL.sender,
  });

test("admin: /admin without a session goes to the login page; empty and wrong logins show their messages", async ({
  world,
}) => {
  // The real answers, a little later, so the pending states can be seen.
  const slow = (ms: number) => async (route: Route) => {
    await new Promise((done) => setTimeout(done, ms));
    await route.continue();
  };
  const { page } = await world.open("/admin", {
    before: async (context) => {
      await context.route("**/api/admin/me", slow(700));
      await context.route("**/api/admin/login", slow(700));
    },
    waitUntil: "commit",
  });
  await page.getByText("Admin dashboard laden...").waitFor();
  await page.waitForURL("**/admin-login");
  await page.getByRole("heading", { name: "Admin Login" }).waitFor();

  await page.getByRole("button", { name: "Inloggen" }).click();
  await page.getByText("Gebruikersnaam is verplicht").waitFor();
  await page.getByText("Wachtwoord is verplicht").waitFor();

  await signIn(page, ADMIN_USERNAME, "helemaal-fout-wachtwoord");
  await page.getByRole("button", { name: "Inloggen..." }).waitFor();
  assert(await page.getByLabel("Gebruikersnaam").isDisabled(), "username disabled while signing in");
  assert(await page.getByLabel("Wachtwoord").isDisabled(), "password disabled while signing in");
  await expectNotice(page, "Inloggen mislukt", "Onjuiste inloggegevens");
  assert(page.url().endsWith("/admin-login"), "a failed login stays on the login page");
});

test("admin: signs in and lands on the dashboard's Analytics tab with a welcome line", async ({ world }) => {
  const { page } = await world.open("/admin-login");
  await waitFor(async () => (await page.title()) === "Inloggen | Beheer", 5000, "the login page's own title");
  await signIn(page, ADMIN_USERNAME, world.password);
  await expectNotice(page, "Succesvol ingelogd", "Je bent nu ingelogd als admin.");
  await page.waitForURL("**/admin");
  await waitFor(
    async () => /^(\(\d+\) )?Analytics \| Beheer$/.test(await page.title()),
    5000,
    "the open tab's own title",
  );
  await page
    .getByTestId("welkom")
    .filter({ hasText: `Welkom, ${ADMIN_USERNAME}` })
    .waitFor();
  assertEqual(
    await page.getByRole("tab", { name: "Analytics" }).getAttribute("aria-selected"),
    "true",
    "default tab",
  );
  await page.getByText("IP Geolocation by DB-IP").waitFor();
  assertEqual(
    await page.getByRole("link", { name: "IP Geolocation by DB-IP" }).getAttribute("href"),
    "https://db-ip.com",
    "attribution link",
  );
  await page.getByTestId("visitor-chart").waitFor();

  // The tabs work from the keyboard: arrows move and select, End and Home jump, one tab stop.
  const selected = () => page.locator('[role="tab"][aria-selected="true"]').innerText();
  await page.getByRole("tab", { name: "Analytics" }).focus();
  await page.keyboard.press("ArrowRight");
  assertEqual(await selected(), "Lease Aanvragen", "ArrowRight selects the next tab");
  await page.keyboard.press("End");
  assertEqual(await selected(), "Logboek", "End selects the last tab");
  await page.keyboard.press("ArrowRight");
  assertEqual(await selected(), "Analytics", "ArrowRight wraps to the first tab");
  assertEqual(
    await page.evaluate(() => document.activeElement?.id),
    "tab-analytics",
    "focus follows the selected tab",
  );
  assertEqual(await page.locator('[role="tab"][tabindex="0"]').count(), 1, "one tab stop for the tab list");
});

test('admin: a quote sent on the public site appears as "Nieuw" with the counters', async ({
  world,
  signedIn,
}) => {
  const LEAD = newLead();
  await removeAllLeads(world);
  const { page: site } = await world.open("/#aanvraag");
  await site.locator("#aanvraag-auto").fill(LEAD.carUrl);
  await site.locator("#aanvraag-telefoon").fill(LEAD.phone);
  await site.locator("#aanvraag-email").fill(LEAD.email);
  await site.locator("#aanvraag-bedrijf").fill(LEAD.company);
  await site.locator("#aanvraag-looptijd").selectOption("48");
  await site.getByRole("button", { name: "Aanvraag Versturen" }).click();
  await site.getByTestId("aanvraag-succes").waitFor({ timeout: 30_000 });

  const page = signedIn.page;
  await openTab(page, "Lease Aanvragen");
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  const item = page.getByTestId("lease-item").filter({ hasText: LEAD.company });
  await item.waitFor();
  assertEqual(await item.getByTestId("badge").first().innerText(), "Nieuw", "badge of a new request");
  assertEqual(await item.getAttribute("data-unread"), "true", "unread highlight");
  assert((await item.innerText()).includes("48 maanden"), "the list shows the term");
  await waitForCounter(page, "Nieuwe Aanvragen", "1");
  assertEqual(await counter(page, "Bekeken"), "0", "Bekeken counter");
  assertEqual(await counter(page, "Gereageerd"), "0", "Gereageerd counter");
  assertEqual(await counter(page, "Totaal"), "1", "Totaal counter");
  await page.getByText("Selecteer een aanvraag om de details te bekijken").waitFor();
});

test('admin: opening the request marks it read and shows it as "Bekeken" with safe links', async ({
  world,
  signedIn,
}) => {
  const LEAD = newLead();
  await removeAllLeads(world);
  await postQuote(world, LEAD);
  const page = signedIn.page;
  await openTab(page, "Lease Aanvragen");
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  await waitForCounter(page, "Nieuwe Aanvragen", "1");
  const detail = await openLead(page, LEAD.company);
  await detail.getByTestId("badge").filter({ hasText: "Bekeken" }).waitFor();
  await waitForCounter(page, "Nieuwe Aanvragen", "0");
  // The counters and the status filter go by the badges: the opened request is Bekeken, said so.
  await waitForCounter(page, "Bekeken", "1");
  assertEqual(
    await page.getByTestId("counter-Bekeken").getByTestId("counter-hint").innerText(),
    "Geopend, nog niet gereageerd",
    "what the Bekeken counter counts",
  );
  await page.getByLabel("Status").selectOption("bekeken");
  await page.getByText("Lease Aanvragen (1)").waitFor();
  await page.getByLabel("Status").selectOption("nieuw");
  await page.getByTestId("no-matches").waitFor();
  await page.getByLabel("Status").selectOption("");
  const car = detail.getByRole("link", { name: LEAD.carUrl });
  assertEqual(await car.getAttribute("target"), "_blank", "car link target");
  assertEqual(await car.getAttribute("rel"), "noopener noreferrer", "car link rel");
  assertEqual(
    await detail.getByRole("link", { name: LEAD.email }).getAttribute("href"),
    `mailto:${LEAD.email}`,
    "mail link",
  );
  // Status nieuw-but-read: its badge says Bekeken, so only "Markeer als Gereageerd" is offered.
  await detail.getByRole("button", { name: "Markeer als Gereageerd" }).waitFor();
  assertEqual(
    await detail.getByRole("button", { name: "Markeer als Bekeken" }).count(),
    0,
    "no Markeer als Bekeken beside the Bekeken badge",
  );
});

test("admin: a lead's road to a contract: an offer, then a signed contract with its commission, in Dutch notation", async ({
  world,
  signedIn,
}) => {
  const LEAD = newLead();
  await postQuote(world, LEAD);
  const page = signedIn.page;
  await openTab(page, "Lease Aanvragen");
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  const detail = await openLead(page, LEAD.company);

  const stage = await saveStage(
    page,
    detail,
    "Offerte verstuurd",
    { "Maandbedrag (€)": "349,50" },
    "Offerte",
  );
  await stage.getByTestId("stage-summary").filter({ hasText: "€ 349,50" }).waitFor();

  // A contract needs its commission: the form says so in Dutch before anything is sent.
  await stage.getByLabel("Nieuwe fase").selectOption({ label: "Contract getekend" });
  await stage.getByRole("button", { name: "Fase opslaan" }).click();
  await stage.getByRole("alert").filter({ hasText: "Vul de commissie in, bijvoorbeeld 1.200,00" }).waitFor();
  await stage.getByLabel("Commissie (€)").fill("1.200");
  await stage.getByLabel("Looptijd (maanden, optioneel)").fill("48");
  await stage.getByRole("button", { name: "Fase opslaan" }).click();
  await detail.getByTestId("badge").filter({ hasText: "Getekend" }).waitFor();
  await stage.getByTestId("stage-summary").filter({ hasText: "€ 1.200,00" }).waitFor();
  await detail
    .getByTestId("timeline-item")
    .filter({ hasText: `naar Getekend door ${ADMIN_USERNAME}` })
    .filter({ hasText: "Commissie € 1.200,00 · Maandbedrag € 349,50 · Looptijd 48 maanden" })
    .waitFor();
  const { rows } = await world.sql.query<{ commission_cents: number; monthly_amount_cents: number }>(
    "SELECT commission_cents, monthly_amount_cents FROM leads.lease_requests WHERE email = $1",
    [LEAD.email],
  );
  assertEqual(rows[0], { commission_cents: 120000, monthly_amount_cents: 34950 }, "stored in cents");

  // The list filters by stage.
  await page.locator("#lease-status-filter").selectOption({ label: "Getekend" });
  await page.getByTestId("lease-item").filter({ hasText: LEAD.company }).waitFor();
  await page.locator("#lease-status-filter").selectOption({ label: "Offerte" });
  await waitFor(
    async () => (await page.getByTestId("lease-item").filter({ hasText: LEAD.company }).count()) === 0,
    5000,
    "the signed lead is not among the offers",
  );
});

test("admin: a Meta spend export is imported in Campagnes, its bad row named, linked to its utm_campaign and reported", async ({
  world,
  signedIn,
}) => {
  // Names of this run only: the stack is shared with other tests (the campaign story imports its own).
  const run = randomBytes(3).toString("hex");
  const name = `Lente actie ${run}`;
  const utm = `lente-${run}`;
  const page = signedIn.page;
  await openTab(page, "Campagnes");
  const today = amsterdamToday();
  const csv = [
    "Campagnenaam,Dag,Uitgegeven bedrag (EUR),Weergaven",
    `${name},${today},"120,50",1000`,
    `${name},${today},"179,50",800`,
    `${name},gisteren,"1,00",1`,
  ].join("\n");
  const result = await importSpendExport(page, "meta-export.csv", csv);
  await result
    .filter({ hasText: "Meta (Facebook, Instagram): 1 ingelezen, 0 ongewijzigd, 1 regel overgeslagen." })
    .waitFor({ timeout: 30_000 });
  await result.getByText('Regel 4: Onbekende datum "gisteren"').waitFor();
  await dismissNotice(page);
  const row = page.getByTestId("spend-row").filter({ hasText: name });
  await row.filter({ hasText: "€ 300,00" }).waitFor();

  // The same file again changes nothing.
  await page.getByRole("button", { name: "Importeren" }).click();
  await result.filter({ hasText: "0 ingelezen, 1 ongewijzigd" }).waitFor();
  await dismissNotice(page);

  await row.getByLabel(`utm_campaign van ${name}`).fill(utm);
  await row.getByRole("button", { name: "Koppelen" }).click();
  await expectNotice(page, "Koppeling Opgeslagen");
  const { rows } = await world.sql.query(
    "SELECT platform, campaign, utm_campaign FROM tracking.spend_links WHERE campaign = $1",
    [name],
  );
  assertEqual(rows, [{ platform: "meta", campaign: name, utm_campaign: utm }], "the link");

  // The report above counts it for its utm_campaign (no visit of it in this stack: a row of its own),
  // says that stages count in their lead's period, and downloads as CSV.
  const report = page.getByTestId("campaign-report");
  const lente = report.getByTestId("report-row").filter({ hasText: utm });
  await lente.locator('[data-column="spend"]').filter({ hasText: "€ 300,00" }).waitFor();
  await page
    .getByTestId("cohort-note")
    .filter({ hasText: "in de periode waarin de aanvraag binnenkwam" })
    .waitFor();
  await report.getByRole("button", { name: "Kosten", exact: true }).click();
  await report.locator('th[aria-sort="ascending"]').filter({ hasText: "Kosten" }).waitFor();
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download CSV" }).click(),
  ]);
  const csvText = await new Promise<string>((resolve, reject) => {
    void file.createReadStream().then((stream) => {
      let text = "";
      stream.on("data", (chunk) => (text += chunk));
      stream.on("end", () => resolve(text));
      stream.on("error", reject);
    }, reject);
  });
  assert(
    csvText.includes(`"facebook";"(geen)";"${utm}";"300"`),
    `the CSV has the lente row: ${csvText.slice(0, 300)}`,
  );

  // A day's spend typed in is confirmed with the day as a Dutch sentence writes it.
  await dismissNotice(page);
  const typed = page.locator("form").filter({ hasText: "Kosten van een dag invoeren" });
  await typed.getByLabel("Campagne").fill(`Zomer actie ${run}`);
  await typed.getByLabel("Bedrag (€)").fill("25,00");
  await typed.getByRole("button", { name: "Opslaan", exact: true }).click();
  const [year, month, date] = today.split("-");
  await expectNotice(page, "Kosten Opgeslagen", `Zomer actie ${run}: 25,00 op ${date}-${month}-${year}.`);
});

test("admin: the campaign report says its figures are being updated, and never downloads the old period's as the new", async ({
  signedIn,
}) => {
  const name = `Herfst actie ${randomBytes(3).toString("hex")}`;
  const page = signedIn.page;
  await openTab(page, "Campagnes");
  const typed = page.locator("form").filter({ hasText: "Kosten van een dag invoeren" });
  await typed.getByLabel("Campagne").fill(name);
  await typed.getByLabel("Bedrag (€)").fill("40,00");
  await typed.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Kosten Opgeslagen");
  await dismissNotice(page);
  const report = page.getByTestId("campaign-report");
  const row = report.getByTestId("report-row").filter({ hasText: name });
  await row.locator('[data-column="spend"]').filter({ hasText: "€ 40,00" }).waitFor();
  const refreshing = page.getByTestId("report-refreshing");
  assertEqual(await refreshing.count(), 0, "no update notice once the figures are in");

  // The report's answers now take a while (a slow line), as they can for a long period.
  let release: () => void = () => undefined;
  await page.route("**/api/admin/campaign-report?*", async (route) => {
    await new Promise<void>((done) => (release = done));
    await route.continue();
  });
  // Reopened, the tab shows the figures it had, dimmed and marked as being updated.
  await openTab(page, "Lease Aanvragen");
  await openTab(page, "Campagnes");
  await refreshing.filter({ hasText: "Cijfers worden bijgewerkt..." }).waitFor();
  await row.waitFor();
  assertEqual(await report.locator("xpath=..").getAttribute("aria-busy"), "true", "the table is busy");
  release();
  await refreshing.waitFor({ state: "detached" });
  assertEqual(await report.locator("xpath=..").getAttribute("aria-busy"), null, "not busy once updated");

  // Another period asked for: until its figures arrive, the download is off (it would be the old period's).
  const download = page.getByRole("button", { name: "Download CSV" });
  assert(await download.isEnabled(), "the download is on for figures of the period shown");
  const form = page.locator("form").filter({ hasText: "Tot en met" });
  const [year, month, date] = amsterdamToday().split("-").map(Number);
  const from = new Date(Date.UTC(year!, month! - 1, date! - 59)).toISOString().slice(0, 10);
  await form.getByLabel("Van").fill(from);
  await form.getByRole("button", { name: "Toon" }).click();
  await refreshing.waitFor();
  assert(await download.isDisabled(), "no download while the new period's figures load");
  release();
  await refreshing.waitFor({ state: "detached" });
  await waitFor(() => download.isEnabled(), 10_000, "the download is on again for the new period");
  await page.unroute("**/api/admin/campaign-report?*");
});

test("admin: company details saved show on the public footer", async ({ world, signedIn }) => {
  const page = signedIn.page;
  await openTab(page, "Bedrijfsgegevens");
  const name = page.getByLabel("Bedrijfsnaam");
  await name.waitFor();
  assert(await name.evaluate((input: HTMLInputElement) => input.readOnly), "read-only until Bewerken");
  await page.getByRole("button", { name: "Bewerken" }).click();
  await name.fill(COMPANY.name);
  await page.getByLabel("Telefoonnummer").fill(COMPANY.phone);
  await page.getByLabel("E-mailadres").fill(COMPANY.email);
  await page.getByLabel("KvK-nummer").fill("123");
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  // The server's field message shows next to the field.
  await expectNotice(page, "Fout bij Opslaan");
  const kvkError = page.getByTestId("field-error").filter({ hasText: "KvK-nummer bestaat uit 8 cijfers" });
  await kvkError.waitFor();
  // Still wrong while typing: the message stays; corrected: it goes before saving.
  await page.getByLabel("KvK-nummer").pressSequentially("4");
  await kvkError.waitFor();
  await page.getByLabel("KvK-nummer").fill("12345678");
  await kvkError.waitFor({ state: "hidden" });
  assertEqual(await page.getByLabel("KvK-nummer").getAttribute("aria-invalid"), "false", "valid again");
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Instellingen Opgeslagen", "Bedrijfsgegevens zijn succesvol bijgewerkt.");
  await page.getByRole("button", { name: "Bewerken" }).waitFor();
  assert((await page.getByTestId("company-preview").innerText()).includes(COMPANY.name), "live preview");

  const { page: site } = await world.open("/over-ons");
  const footer = site.locator("footer");
  await footer.getByText(COMPANY.phone).first().waitFor({ timeout: 10_000 });
  await footer.getByText("KvK: 12345678").waitFor();
  // The page's title names the company as the header does.
  await waitFor(
    async () => (await site.title()) === `Over Ons: 15+ jaar ervaring in zakelijke lease | ${COMPANY.name}`,
    5000,
    "the title with the saved company name",
  );
});

test('admin: sending before a mail provider is set shows "Fout bij Verzenden" with the server\'s message', async ({
  world,
  signedIn,
}) => {
  await clearMailSettings(signedIn.page);
  const compose = await signedIn.context.newPage();
  await compose.goto(`${world.baseUrl}/email-compose`);
  await compose.getByLabel("Aan").fill("klant@example.nl");
  await compose.getByLabel("Onderwerp").fill("Nog geen provider");
  await compose.getByLabel("Bericht").fill("Dit kan nog niet verstuurd worden.");
  await compose.getByRole("button", { name: "Verzenden" }).click();
  const notice = await expectNotice(compose, "Fout bij Verzenden");
  const text = await notice.innerText();
  assert(!/^\d{3}:/m.test(text) && !text.includes("{"), `a readable server message, got "${text}"`);
  // The notice goes; the page keeps saying why nothing was sent.
  await dismissNotice(compose);
  await compose
    .getByTestId("send-error")
    .getByText("Er is geen e-mailprovider ingesteld", { exact: false })
    .waitFor();
  assert(!compose.isClosed(), "the window stays open after a failure");
  await compose.getByRole("button", { name: "Verzenden" }).isEnabled();
  await compose.close();
});

test("admin: e-mail settings are saved, masked, and the test e-mail reaches SendGrid", async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  await clearMailSettings(page);
  await openTab(page, "E-mail Instellingen");
  await page.getByText("Niet geconfigureerd").waitFor();
  const save = page.getByRole("button", { name: "Opslaan", exact: true });
  assert(await save.isDisabled(), "Save is disabled without unsaved changes");
  // The button is aria-disabled until both fields are set, yet still says what is missing when clicked.
  await page.getByRole("button", { name: "Test e-mail versturen" }).click({ force: true });
  await expectNotice(page, "Ontbrekende gegevens", "Vul eerst SendGrid API key en afzender e-mail in.");

  await page.getByLabel("SendGrid API key").fill(MAIL.key);
  await page.getByText("Afzender e-mail ontbreekt").waitFor();
  await page.getByLabel("Afzender e-mail").fill(MAIL.sender);
  await page.getByText("Volledig geconfigureerd").waitFor();
  await save.click();
  await expectNotice(page, "Opgeslagen", "E-mail instellingen bijgewerkt op");
  const key = await page.getByLabel("SendGrid API key").inputValue();
  assert(
    key.startsWith("SG.") && key.endsWith(MAIL.key.slice(-4)) && key !== MAIL.key,
    `masked key, got ${key}`,
  );
  await page.getByText("Geldig formaat").first().waitFor();

  const before = world.receiver.accepted().length;
  await page.getByRole("button", { name: "Test e-mail versturen" }).click();
  await expectNotice(page, "Test e-mail verzonden", `Controleer de inbox van ${MAIL.sender}`);
  await waitFor(() => world.receiver.accepted().length > before, 15_000, "the test e-mail at SendGrid");
  const mail = world.receiver.accepted().at(-1)!;
  assertEqual(mail.to, [MAIL.sender], "test e-mail recipient");
  assertEqual(mail.apiKey, MAIL.key, "the stored key is used");
});

test("admin: compose is pre-filled, validated, sent to SendGrid, closes, and the status is set to Gereageerd by hand", async ({
  world,
  signedIn,
}) => {
  const LEAD = newLead();
  await removeAllLeads(world);
  await postQuote(world, LEAD);
  const page = signedIn.page;
  await setCompanyAndMail(page);
  await openTab(page, "Lease Aanvragen");
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  await page.getByTestId("lease-item").filter({ hasText: LEAD.company }).click();
  const [compose] = await Promise.all([
    signedIn.context.waitForEvent("page"),
    page.getByRole("button", { name: "E-mail Versturen" }).click(),
  ]);
  await compose.waitForURL(/\/email-compose\?requestId=/);
  const to = compose.getByLabel("Aan");
  await waitFor(async () => (await to.inputValue()) === LEAD.email, 10_000, "the pre-filled recipient");
  assertEqual(
    await compose.getByLabel("Onderwerp").inputValue(),
    `Follow-up op uw lease aanvraag - ${COMPANY.name}`,
    "pre-filled subject",
  );
  const body = await compose.getByLabel("Bericht").inputValue();
  for (const part of [`Beste ${LEAD.company},`, LEAD.carUrl, "[Voeg hier uw persoonlijke bericht toe]"]) {
    assert(body.includes(part), `the body should contain "${part}"`);
  }
  // The company's details are added below the message once, by the mailer (the box says which).
  for (const detail of [COMPANY.phone, COMPANY.email])
    assert(!body.includes(detail), `the body leaves "${detail}" to the company details`);
  assertEqual(await compose.getByLabel("Bericht").getAttribute("rows"), "12", "message rows");
  const box = await compose.getByTestId("company-box").innerText();
  for (const detail of [COMPANY.name, COMPANY.phone, COMPANY.email])
    assert(box.includes(detail), `company box lists "${detail}"`);

  const focused = () => compose.evaluate(() => document.activeElement?.id);
  await compose.getByLabel("Onderwerp").fill("");
  await compose.getByLabel("Bericht").fill("kort");
  await compose.getByRole("button", { name: "Verzenden" }).click();
  await compose.getByText("Onderwerp is verplicht").waitFor();
  await compose.getByText("Bericht moet minimaal 10 karakters bevatten").waitFor();
  await waitFor(
    async () => (await focused()) === "compose-subject",
    5000,
    "focus on the first invalid field",
  );
  // The template's placeholder left as it is: not sent, said at the field, which gets the focus.
  await compose.getByLabel("Onderwerp").fill(`Follow-up op uw lease aanvraag - ${COMPANY.name}`);
  await compose.getByLabel("Bericht").fill(body);
  await compose.getByRole("button", { name: "Verzenden" }).click();
  await compose
    .getByText('Vervang "[Voeg hier uw persoonlijke bericht toe]" door uw eigen bericht')
    .waitFor();
  await waitFor(async () => (await focused()) === "compose-message", 5000, "focus on the message");
  await compose
    .getByLabel("Bericht")
    .fill(body.replace("[Voeg hier uw persoonlijke bericht toe]", "De Tesla is beschikbaar."));

  const before = world.receiver.accepted().length;
  const closed = compose.waitForEvent("close", { timeout: 10_000 });
  await compose.getByRole("button", { name: "Verzenden" }).click();
  await closed;
  await waitFor(() => world.receiver.accepted().length > before, 15_000, "the reply at SendGrid");
  const mail = world.receiver.accepted().at(-1)!;
  assertEqual(mail.to, [LEAD.email], "reply recipient");
  assert(mail.text.includes("De Tesla is beschikbaar."), "the admin's own text is sent");
  for (const detail of [COMPANY.phone, COMPANY.email])
    assertEqual(mail.text.split(detail).length - 1, 1, `"${detail}" once in the e-mail`);

  // SPEC keeps the status change manual.
  const detail = page.getByTestId("lease-detail");
  await detail.getByTestId("badge").filter({ hasText: "Bekeken" }).waitFor();
  await detail.getByRole("button", { name: "Markeer als Gereageerd" }).click();
  await expectNotice(page, "Status Bijgewerkt");
  await detail.getByTestId("badge").filter({ hasText: "Gereageerd" }).waitFor();
  await waitForCounter(page, "Gereageerd", "1");
  assertEqual(
    await detail.getByRole("button", { name: "Markeer als Gereageerd" }).count(),
    0,
    "hidden once set",
  );
});

test("admin: the inbox shows the lead's Lease Aanvraag entry and the sent reply, and opening marks read", async ({
  world,
  signedIn,
}) => {
  const LEAD = newLead();
  const page = signedIn.page;
  await setCompanyAndMail(page);
  const leadId = await postQuote(world, LEAD);
  const subject = `Follow-up op uw lease aanvraag - ${COMPANY.name} (${LEAD.company})`;
  const sent = await adminApi(page, "POST", "/api/admin/send-email", {
    to: LEAD.email,
    subject,
    message: "De Tesla is beschikbaar.",
    leaseRequestId: leadId,
  });
  assertEqual(sent.status, 202, "the reply queued");
  await waitFor(
    async () =>
      (await world.sql.query("SELECT status FROM mailer.outgoing_emails WHERE subject = $1", [subject]))
        .rows[0]?.status === "sent",
    15_000,
    "the reply sent",
  );
  await openTab(page, "E-mail Inbox");
  // The lead's e-mail reaches the inbox through the leads service's event.
  const entry = page
    .getByTestId("inbox-item")
    .filter({ hasText: "Lease Aanvraag" })
    .filter({ hasText: LEAD.email });
  await waitFor(
    async () => {
      await page.getByRole("button", { name: "Vernieuwen" }).click();
      await page.getByRole("button", { name: "Vernieuwen", disabled: false }).waitFor();
      return (await entry.count()) > 0;
    },
    10_000,
    "the lead's e-mail in the inbox",
  );
  assertEqual(await entry.getAttribute("data-unread"), "true", "the lead's e-mail starts unread");
  const unreadBefore = Number((await page.getByText(/\d+ ongelezen/).innerText()).split(" ")[0]);
  assert(unreadBefore >= 1, "unread badge counts it");
  await entry.click();
  const detail = page.getByTestId("email-detail");
  await detail.getByText("Lease Aanvraag").first().waitFor();
  await waitFor(
    async () => (await page.getByText(/\d+ ongelezen/).innerText()) === `${unreadBefore - 1} ongelezen`,
    10_000,
    "the unread count to drop",
  );
  assertEqual(await entry.getAttribute("data-unread"), "false", "opened e-mail is read");
  // The reply is sent mail, not an unread inbox item.
  assertEqual(
    await page.getByTestId("inbox-item").filter({ hasText: subject }).count(),
    0,
    "the reply is not in the inbox",
  );
  await page.getByRole("button", { name: "Uitgaand", exact: true }).click();
  const reply = page.getByTestId("inbox-item").filter({ hasText: subject }).first();
  await reply.getByText("Uitgaande e-mail").waitFor();
  await reply.getByTestId("badge").filter({ hasText: "Verzonden" }).waitFor();
  await page.getByRole("button", { name: "Ontvangen", exact: true }).click();
});

test("admin: a long inbox counts every e-mail and loads the older ones on request", async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  // Older than everything else: they sort to the end of the newest-first list. Within the
  // privacy policy's retention (a year): the mailer's daily retention pass, which runs a minute
  // after the stack starts, would otherwise remove them mid-test.
  await world.sql.query(
    `INSERT INTO mailer.email_messages
       (source, source_id, subject, sender_name, sender_email, recipient_email, message_body,
        message_type, is_read, created_at)
     SELECT 'archive', gen_random_uuid(), 'Archief ' || i, 'Archief', 'archief@example.nl',
            'info@example.nl', 'Oud bericht', 'contact_form', true,
            date_trunc('day', now()) - interval '60 days' + i * interval '1 minute'
     FROM generate_series(1, 510) AS i`,
  );
  const { rows } = await world.sql.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM mailer.email_messages WHERE source <> 'outgoing'",
  );
  const total = rows[0]!.n;
  await openTab(page, "E-mail Inbox");
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  await page.getByText(`E-mail Inbox (${total})`).waitFor({ timeout: 10_000 });
  const items = page.getByTestId("inbox-item");
  await waitFor(async () => (await items.count()) === 500, 5000, "the newest 500 listed");
  await page.getByText(`500 van ${total} e-mails getoond`).waitFor();
  await page.getByRole("button", { name: "Meer laden" }).click();
  await waitFor(async () => (await items.count()) === total, 10_000, "every e-mail listed");
  assert((await items.last().innerText()).includes("Archief 1"), "the oldest e-mail comes last");
  assertEqual(await page.getByRole("button", { name: "Meer laden" }).count(), 0, "nothing more to load");
  // A refresh re-reads every loaded page: the older e-mails stay listed.
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  await page.getByRole("button", { name: "Vernieuwen", disabled: false }).waitFor();
  assertEqual(await items.count(), total, "every e-mail still listed after a refresh");
});

test('admin: a send that SendGrid refuses shows as "Verzenden mislukt" in sent mail', async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  await setCompanyAndMail(page);
  const compose = await signedIn.context.newPage();
  await compose.goto(`${world.baseUrl}/email-compose`);
  await compose.getByLabel("Aan").fill("geweigerd@example.nl");
  await compose.getByLabel("Onderwerp").fill("Wordt geweigerd");
  await compose.getByLabel("Bericht").fill("Dit bericht weigert de provider.");
  world.receiver.answer(400);
  await compose.getByRole("button", { name: "Verzenden" }).click();
  await expectNotice(compose, "Verzenden mislukt", "SendGrid weigerde de e-mail (400)");
  await compose.close();

  await openTab(page, "E-mail Inbox");
  await page.getByRole("button", { name: "Uitgaand", exact: true }).click();
  const item = page.getByTestId("inbox-item").filter({ hasText: "Wordt geweigerd" });
  await waitFor(
    async () => {
      await page.getByRole("button", { name: "Vernieuwen" }).click();
      return (await item.getByText("Verzenden mislukt").count()) > 0;
    },
    20_000,
    'the failed send marked "Verzenden mislukt"',
  );
});

test("admin: a theme saved changes the public site's colours", async ({ world, signedIn }) => {
  const page = signedIn.page;
  await openTab(page, "Theme Instellingen");
  await page.getByRole("button", { name: "Bewerken" }).click();
  await page.getByRole("button", { name: "Professional Blue" }).click();
  assertEqual(
    await page.getByLabel("Primaire kleur", { exact: true }).inputValue(),
    "#2563EB",
    "preset primary",
  );
  // A preset sets every colour: no red hover or purple gradient of the default left under blue.
  for (const [label, value] of [
    ["Primaire kleur (hover)", "#1D4ED8"],
    ["Accentkleur", "#059669"],
    ["Achtergrondverloop begin", "#1E3A8A"],
    ["Achtergrondverloop eind", "#2563EB"],
  ] as const)
    assertEqual(await page.getByLabel(label, { exact: true }).inputValue(), value, `preset ${label}`);
  await page.getByRole("button", { name: "Voorbeeld" }).click();
  await expectNotice(page, "Theme Toegepast");
  await page.getByText("alleen tijdelijk zichtbaar").waitFor();
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Theme Opgeslagen");

  const { page: site } = await world.open("/");
  await waitFor(
    async () =>
      (
        await site.evaluate(() =>
          getComputedStyle(document.documentElement).getPropertyValue("--color-primary"),
        )
      )
        .trim()
        .toUpperCase() === "#2563EB",
    10_000,
    "the public primary colour",
  );
  assertEqual(
    await site.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue("--color-primary-hover").trim(),
    ),
    "#1D4ED8",
    "the public hover colour is the preset's blue",
  );

  // Reset to default, confirmed and saved, stores the default theme again.
  await dismissNotice(page);
  await page.getByRole("button", { name: "Bewerken" }).click();
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Standaard herstellen" }).click();
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Theme Opgeslagen", "standaard");
  assertEqual(
    await page.getByLabel("Primaire kleur", { exact: true }).inputValue(),
    "#EA580C",
    "default primary",
  );
});

test('admin: a pixel id saved turns its badge "Actief"; a wrong one shows the server message', async ({
  signedIn,
}) => {
  const page = signedIn.page;
  await openTab(page, "Social Media Pixels");
  const card = page.getByTestId("pixel-facebookPixelId");
  await card.getByText("Inactief").waitFor();
  await page.getByRole("button", { name: "Bewerken" }).click();
  await card.getByLabel("Pixel ID").fill("abc");
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Fout bij Opslaan");
  await card.getByTestId("field-error").waitFor();
  await card.getByLabel("Pixel ID").fill("1234567890123");
  // Corrected: the message goes at once, not only on saving.
  await card.getByTestId("field-error").waitFor({ state: "hidden" });
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Pixels Opgeslagen");
  await card.getByText("Actief", { exact: true }).waitFor();
  await page.getByRole("button", { name: "Bewerken" }).waitFor();
  // Cancel restores the saved values.
  await page.getByRole("button", { name: "Bewerken" }).click();
  await card.getByLabel("Pixel ID").fill("");
  await card.getByText("Inactief").waitFor();
  await page.getByRole("button", { name: "Annuleren" }).click();
  assertEqual(
    await card.getByLabel("Pixel ID").inputValue(),
    "1234567890123",
    "saved id back after Annuleren",
  );
  await card.getByText("Actief", { exact: true }).waitFor();
});

test('admin: a repeat quote is marked "Mogelijk dubbel"; search, status filter and CSV export follow the filter', async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  // One request answered earlier, then the same person twice.
  const LEAD = newLead();
  await removeAllLeads(world);
  const answeredId = await postQuote(world, LEAD);
  const answered = await adminApi(page, "PATCH", `/api/admin/lease-requests/${answeredId}/status`, {
    status: "gereageerd",
    isRead: true,
  });
  assertEqual(answered.status, 200, "status set");
  for (const carUrl of [
    "https://www.autoscout24.nl/aanbod/bmw-1",
    "https://www.autoscout24.nl/aanbod/bmw-2",
  ]) {
    await postLead(world, { carUrl, contactNumber: "0698765432", email: "dubbel@example.nl" });
  }
  await openTab(page, "Lease Aanvragen");
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  await waitForCounter(page, "Totaal", "3");
  const repeats = page.getByTestId("lease-item").filter({ hasText: "dubbel@example.nl" });
  await waitFor(async () => (await repeats.count()) === 2, 5000, "both repeat quotes listed");
  assertEqual(
    await repeats.filter({ hasText: "Mogelijk dubbel" }).count(),
    1,
    "only the later one is a duplicate",
  );
  assertEqual(await repeats.first().getByText("Geen bedrijfsnaam").count(), 1, "no company name label");

  await page.getByLabel("Zoeken").fill("dubbel@");
  await page.getByRole("button", { name: "Zoeken", exact: true }).click();
  await page.getByText("Lease Aanvragen (2)").waitFor();
  const csvHref = await page.getByRole("link", { name: "Exporteer CSV" }).getAttribute("href");
  assert(csvHref?.includes("q=dubbel%40"), `the CSV link carries the search, got ${csvHref}`);
  const csv = await page.evaluate((href) => fetch(href!).then((r) => r.text()), csvHref);
  assert(csv.includes("dubbel@example.nl") && !csv.includes(LEAD.email), "the CSV holds only the matches");

  await page.getByLabel("Zoeken").fill("");
  await page.getByRole("button", { name: "Zoeken", exact: true }).click();
  await page.locator("#lease-status-filter").selectOption("gereageerd");
  await page.getByText("Lease Aanvragen (1)").waitFor();
  await page.getByTestId("lease-item").filter({ hasText: LEAD.company }).waitFor();
  await page.locator("#lease-status-filter").selectOption("");
  await page.getByText("Lease Aanvragen (3)").waitFor();

  for (let left = 2; left > 0; left--) {
    await repeats.first().click();
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByTestId("lease-detail").getByRole("button", { name: "Verwijderen" }).click();
    await page.getByText("Selecteer een aanvraag om de details te bekijken").waitFor();
    await waitFor(
      async () => (await repeats.count()) === left - 1,
      5000,
      "the deleted request to leave the list",
    );
  }
});

test("admin: deleting the request clears the selection and the list", async ({ world, signedIn }) => {
  const LEAD = newLead();
  await removeAllLeads(world);
  await postQuote(world, LEAD);
  const page = signedIn.page;
  await openTab(page, "Lease Aanvragen");
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  await page.getByTestId("lease-item").filter({ hasText: LEAD.company }).click();
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Verwijderen" }).click();
  await expectNotice(page, "Aanvraag Verwijderd");
  await page.getByText("Nog geen lease aanvragen ontvangen").waitFor();
  await page.getByText("Selecteer een aanvraag om de details te bekijken").waitFor();
  await waitForCounter(page, "Totaal", "0");
});

test("admin: a visit in a second browser appears live on the Analytics tab", async ({ world, signedIn }) => {
  const page = signedIn.page;
  await dismissNotice(page);
  await openTab(page, "Analytics");
  await page
    .getByTestId("live-status")
    .and(page.locator('[data-connected="true"]'))
    .waitFor({ timeout: 10_000 });
  await world.open("/fleet-management");
  await page.getByTestId("active-visitors").getByText("Fleet Management").first().waitFor({ timeout: 8_000 });
  await page.getByTestId("top-pages").getByText("Fleet Management").waitFor({ timeout: 8_000 });
});

test("admin: hundreds active: the live list is paged, says how many it shows of how many, and stays short", async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  await openTab(page, "Analytics");
  // A campaign's visitors arrive at once: the beacons of 60 consenting browsers.
  const run = randomBytes(3).toString("hex");
  await Promise.all(
    Array.from({ length: 60 }, (_, i) =>
      visitBeacon(world, `session-page${run}${i}-${Date.now()}`, "/fleet-management"),
    ),
  );
  const range = page.getByTestId("active-visitors-range");
  const rows = page.getByTestId("active-visitors").locator("tbody tr");
  const shown = async () => /^1–25 van ([\d.]+) getoond$/.exec(await range.innerText());
  await waitFor(async () => Number((await shown())?.[1]?.replace(".", "") ?? 0) >= 60, 10_000, "1–25 of all");
  assertEqual(await rows.count(), 25, "one page of visitors");
  // The list's total is what Nu actief counts (one snapshot; read until no push falls between).
  let total = 0;
  await waitFor(
    async () => {
      total = Number((await shown())?.[1]?.replace(".", "") ?? 0);
      return (await counter(page, "Nu actief")) === String(total);
    },
    5000,
    "the list's total and Nu actief the same",
  );
  // 200 visitors made the tab 12,000 px tall at 1280 px and 59,000 on a phone; a page of 25 keeps
  // the list's panel to about 1,500 and 4,200 px (the rest of the tab depends on other tests' data).
  const panel = page.locator("section").filter({ has: page.getByTestId("active-visitors") });
  for (const [viewport, most] of [
    [DESKTOP, 2000],
    [{ width: 390, height: 844 }, 5000],
  ] as const) {
    await page.setViewportSize(viewport);
    const height = (await panel.boundingBox())?.height ?? Infinity;
    assert(height < most, `at ${viewport.width} px the list is ${height} px tall`);
  }
  await page.setViewportSize(DESKTOP);

  await page.getByRole("button", { name: "Volgende" }).click();
  await range.getByText(`26–50 van ${total} getoond`).waitFor();
  await page.getByText(`Pagina 2 van ${Math.ceil(total / 25)}`).waitFor();
  assertEqual(await rows.count(), 25, "the second page of visitors");
  await page.getByRole("button", { name: "Vorige" }).click();
  await waitFor(async () => (await shown()) !== null, 5000, "back on the first page");
});

test("admin: the live list shows a consenting visitor's address block, never the address; without consent neither address nor browser", async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  await openTab(page, "Analytics");
  const table = page.getByTestId("active-visitors");
  await world.open("/over-ons", {
    before: (context) =>
      context.addCookies([{ name: "cookie_consent", value: "v1.a1.m0", url: world.baseUrl }]),
  });
  const consenting = table.getByRole("row").filter({ hasText: "Over Ons" });
  await consenting.getByText("127.0.0.0/24").waitFor({ timeout: 8_000 });
  assert((await consenting.innerText()).includes("Chrome"), "the browser of a consenting visitor");

  await world.open("/voorwaarden"); // no choice made: no analytics consent
  const anonymous = table.getByRole("row").filter({ hasText: "Algemene Voorwaarden" });
  await anonymous.getByText("Anoniem (geen toestemming)").waitFor({ timeout: 8_000 });
  const row = await anonymous.innerText();
  assert(!/127\.0\.0|Chrome|Linux/.test(row), `no address or browser without consent: ${row}`);
  assert(!(await table.innerText()).includes("127.0.0.1"), "no full address anywhere in the live list");
});

/** Every label of the visitor chart lies whole inside the drawing (none cut at an edge). */
async function chartLabelsWhole(page: Page, what: string): Promise<void> {
  const chart = page.getByTestId("visitor-chart");
  await chart.locator("text").first().waitFor();
  const cut = await chart.evaluate((svg: SVGSVGElement) => {
    const width = svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll("text")]
      .filter((text) => {
        const box = text.getBBox();
        return box.x < 0 || box.x + box.width > width;
      })
      .map((text) => text.textContent);
  });
  assertEqual(cut, [], `chart labels cut at an edge (${what})`);
}

/** The calendar day in Amsterdam `offset` days from today, as YYYY-MM-DD. */
const day = (offset: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(Date.now() + offset * 86_400_000);

/**
 * The history the Analytics tests read, as a broker moving from another tool brings it (npm run
 * tracking:import; its lines have ids, so importing again adds nothing): yesterday an ad click
 * (google / cpc / najaar, 2 page views) and a direct visit, both landing on /over-ons; 40 days ago
 * one visitor with 2 page views of /fleet-management.
 */
async function importHistory(world: AdminWorld): Promise<void> {
  const noon = (offset: number, minute: number) => `${day(offset)}T10:${String(minute).padStart(2, "0")}:00Z`;
  const lines = [
    {
      id: "e2e-h1",
      at: noon(-1, 0),
      session: "e2e-a",
      page: "/over-ons?utm_source=google&utm_medium=cpc&utm_campaign=najaar&gclid=X",
    },
    { id: "e2e-h2", at: noon(-1, 5), session: "e2e-a", page: "/" },
    { id: "e2e-h3", at: noon(-1, 9), session: "e2e-b", page: "/over-ons" },
    { id: "e2e-h4", at: noon(-40, 0), session: "e2e-c", page: "/fleet-management" },
    { id: "e2e-h5", at: noon(-40, 1), session: "e2e-c", page: "/fleet-management" },
  ];
  const imported = spawnSync(process.execPath, await entryArgs("services/tracking/src/cli/import.ts"), {
    cwd: REPO_ROOT,
    input: lines.map((line) => JSON.stringify(line)).join("\n"),
    env: { ...process.env, DATABASE_URL: world.sql.options.connectionString },
    encoding: "utf8",
  });
  assertEqual(imported.status, 0, `tracking:import: ${imported.stderr}`);
}

test("admin: the Analytics tab shows a chosen period from the history, kept in the URL", async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  await importHistory(world);

  await openTab(page, "Analytics");
  await page.getByRole("group", { name: "Periode" }).getByRole("button", { name: "Gisteren" }).click();
  await page.waitForURL(/periode=gisteren/);
  const totals = page.getByTestId("analytics-totals");
  await totals.getByText("Bezoekers (2)").waitFor();
  await totals.getByText("Paginaweergaven (3)").waitFor();
  await page.getByTestId("top-pages").getByText("Over Ons").waitFor();
  // Where they came from: the ad click as paid search with its campaign, the other visit direct.
  const channels = page.getByTestId("breakdown-channels");
  await channels.getByRole("row", { name: /Betaald zoeken\s+1\s+2/ }).waitFor();
  await channels.getByRole("row", { name: /Direct\s+1\s+1/ }).waitFor();
  await page.getByTestId("breakdown-campaigns").getByText("google / cpc / najaar").waitFor();
  // Yesterday's day before had no visits: said in a sentence, not "bezoekers nieuw".
  await chartLabelsWhole(page, "1280 px");
  await page.setViewportSize(MOBILE);
  await chartLabelsWhole(page, "390 px");
  await page.setViewportSize(DESKTOP);
  const change = await page.getByTestId("analytics-change").innerText();
  assert(
    /^In de vorige periode \(.+\) waren er geen bezoekers, paginaweergaven of conversies om mee te vergelijken\.$/.test(
      change,
    ),
    change,
  );

  await page.reload();
  await totals.getByText("Paginaweergaven (3)").waitFor();
  assertEqual(
    await page.getByRole("button", { name: "Gisteren" }).getAttribute("aria-pressed"),
    "true",
    "the period survives a reload",
  );

  await page.getByRole("button", { name: "Eigen periode" }).click();
  await page.getByLabel("Van").fill(day(-39));
  await page.getByLabel("Tot en met").fill(day(-40));
  await page.getByRole("button", { name: "Toepassen" }).click();
  await page.getByText("De begindatum ligt na de einddatum").waitFor();
  await page.getByLabel("Van").fill(day(-40));
  await page.getByRole("button", { name: "Toepassen" }).click();
  await page.waitForURL(new RegExp(`van=${day(-40)}&tot=${day(-40)}`));
  await totals.getByText("Paginaweergaven (2)").waitFor();
  await totals.getByText("Bezoekers (1)").waitFor();
  await page.getByTestId("top-pages").getByText("Fleet Management").waitFor();

  await page.goBack();
  await page.waitForURL(/periode=gisteren/);
  await totals.getByText("Paginaweergaven (3)").waitFor();
});

test("admin: a click on a campaign filters the whole Analytics tab and the URL; Back and Forward follow", async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  await importHistory(world);
  await openTab(page, "Analytics");
  await page.getByRole("group", { name: "Periode" }).getByRole("button", { name: "Gisteren" }).click();
  await page.waitForURL(/periode=gisteren/);
  const totals = page.getByTestId("analytics-totals");
  await totals.getByText("Bezoekers (2)").waitFor();
  const chips = page.getByTestId("analytics-filter");
  // At 1280 px every breakdown's six columns fit its card: nothing to scroll sideways inside it.
  await page.getByTestId("breakdown-campaigns").getByText("google / cpc / najaar").waitFor();
  const clipped = await page.getByRole("region").evaluateAll((regions) =>
    regions
      .filter((region) => region.querySelector("table[data-testid^='breakdown-']"))
      .filter((region) => region.scrollWidth > region.clientWidth + 1)
      .map((region) => `${region.getAttribute("aria-label")}: ${region.scrollWidth}/${region.clientWidth}`),
  );
  assertEqual(clipped, [], "breakdown tables that scroll sideways at 1280 px");

  await page
    .getByTestId("breakdown-campaigns")
    .getByRole("button", { name: "google / cpc / najaar" })
    .click();
  await page.waitForURL(/campagne=najaar/);
  const url = new URL(page.url());
  assertEqual(url.searchParams.get("periode"), "gisteren", "the period stays in the URL");
  assertEqual(url.searchParams.get("campagnebron"), "google", "the campaign's source in the URL");
  assertEqual(url.searchParams.get("campagnemedium"), "cpc", "the campaign's medium in the URL");
  await chips.getByText("Filter: campagne google / cpc / najaar").waitFor();
  await totals.getByText("Bezoekers (1)").waitFor();
  await totals.getByText("Paginaweergaven (2)").waitFor();
  const channels = page.getByTestId("breakdown-channels");
  await channels.getByRole("row", { name: /Betaald zoeken\s+1\s+2/ }).waitFor();
  assertEqual(await channels.getByRole("row").count(), 2, "only the campaign's channel (and the heading)");
  await page.getByTestId("top-pages-filtered").waitFor();
  assertEqual(
    await page.getByRole("tab", { name: "Analytics", exact: true }).getAttribute("aria-selected"),
    "true",
    "still on the Analytics tab",
  );

  // A second filter narrows further (AND): its landing page.
  await page.getByTestId("breakdown-landingPages").getByRole("button", { name: "Over Ons" }).click();
  await page.waitForURL(/landingspagina=%2Fover-ons/);
  await chips.getByText("Filter: landingspagina Over Ons").waitFor();
  await totals.getByText("Bezoekers (1)").waitFor();

  await page.goBack();
  await page.waitForURL((u) => !u.searchParams.has("landingspagina") && u.searchParams.has("campagne"));
  await chips.getByText("Filter: campagne google / cpc / najaar").waitFor();
  await page.goBack();
  await page.waitForURL(
    (u) => !u.searchParams.has("campagne") && u.searchParams.get("periode") === "gisteren",
  );
  await totals.getByText("Bezoekers (2)").waitFor();
  await chips.waitFor({ state: "detached" });
  await page.goForward();
  await page.waitForURL(/campagne=najaar/);
  await totals.getByText("Bezoekers (1)").waitFor();

  await page.getByRole("button", { name: "Filter campagne google / cpc / najaar verwijderen" }).click();
  await page.waitForURL(
    (u) => !u.searchParams.has("campagne") && u.searchParams.get("periode") === "gisteren",
  );
  await totals.getByText("Bezoekers (2)").waitFor();
  await page.getByTestId("top-pages").getByText("Over Ons").waitFor();

  // A channel goes into the address in Dutch; a link saved with the API's name still works.
  await page.getByTestId("breakdown-channels").getByRole("button", { name: "Betaald zoeken" }).click();
  await page.waitForURL((u) => u.searchParams.get("kanaal") === "betaald-zoeken");
  await chips.getByText("Filter: kanaal Betaald zoeken").waitFor();
  await totals.getByText("Bezoekers (1)").waitFor();
  await page.goto(`${world.baseUrl}/admin?tab=analytics&periode=gisteren&kanaal=Paid+Search`);
  await chips.getByText("Filter: kanaal Betaald zoeken").waitFor();
  await totals.getByText("Bezoekers (1)").waitFor();
});

test("admin: works on a desktop, a tablet and a phone without sideways scrolling", async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  // Long unbroken text, as real mail has: a tracking link and a long address.
  const longUrl = `https://www.autoscout24.nl/aanbod/${"volkswagen-id-buzz-pro-".repeat(8)}e2e?utm_source=nieuwsbrief`;
  await world.sql.query(
    `INSERT INTO mailer.email_messages
       (source, source_id, subject, sender_name, sender_email, recipient_email, message_body, message_type)
     VALUES ('e2e', gen_random_uuid(), 'Lange link', 'Klant', 'klantenservice.zakelijk.noordholland@voorbeeldautolease.nl',
             'info@example.nl', $1, 'contact_form')`,
    [`Zie deze auto: ${longUrl}`],
  );
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 768, height: 1024 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    for (const tab of ["Analytics", "Lease Aanvragen", "Theme Instellingen", "E-mail Inbox"]) {
      await openTab(page, tab);
      assert((await overflow()) <= 0, `${tab} at ${viewport.width}px: ${await overflow()}px too wide`);
      if (tab === "Lease Aanvragen") {
        // The filters are wide enough to read what is chosen or typed (not squeezed beside buttons).
        for (const label of ["Status", "Kanaal", "Campagne"]) {
          const width = (await page.getByLabel(label, { exact: true }).boundingBox())?.width ?? 0;
          assert(width >= 150, `${label} filter at ${viewport.width}px is ${width}px wide`);
        }
      }
      if (tab !== "Analytics") continue;
      // The chart is drawn at its own width: its 11 px labels are not scaled down on a phone.
      const scale = async () =>
        page.getByTestId("visitor-chart").evaluate((svg) => {
          const box = (svg as SVGSVGElement).viewBox.baseVal;
          return svg.getBoundingClientRect().width / box.width;
        });
      await waitFor(
        async () => Math.abs((await scale()) - 1) < 0.02,
        5000,
        `chart drawn 1:1 at ${viewport.width}px`,
      );
    }
    await page.getByRole("button", { name: "Vernieuwen" }).click();
    await page.getByTestId("inbox-item").filter({ hasText: "Lange link" }).first().click();
    await page.getByText(longUrl).waitFor();
    assert((await overflow()) <= 0, `an open e-mail at ${viewport.width}px: ${await overflow()}px too wide`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("admin: logout returns to the login page and the old cookie no longer works", async ({
  world,
  signedIn,
}) => {
  {
    const page = signedIn.page;
    const cookies = await signedIn.context.cookies();
    const session = cookies.find((cookie) => cookie.name === "admin_session");
    assert(session, "a session cookie was set");
    assert(session.httpOnly, "the session cookie is HttpOnly");
    await page.getByRole("button", { name: "Uitloggen" }).click();
    await page.waitForURL("**/admin-login");
    const me = await fetch(`${world.baseUrl}/api/admin/me`, {
      headers: { cookie: `admin_session=${session.value}` },
    });
    assertEqual(me.status, 401, "GET /api/admin/me with the old cookie");
    await page.goto(`${world.baseUrl}/admin`);
    await page.waitForURL("**/admin-login");

    // A session ended elsewhere while the dashboard is open: the next 401 leads to the login page.
    await signIn(page, ADMIN_USERNAME, world.password);
    await page.getByTestId("welkom").waitFor();
    const fresh = (await signedIn.context.cookies()).find((cookie) => cookie.name === "admin_session");
    const ended = await fetch(`${world.baseUrl}/api/admin/logout`, {
      method: "POST",
      headers: {
        cookie: `admin_session=${fresh!.value}`,
        origin: world.baseUrl,
        "content-type": "application/json",
      },
    });
    assert(ended.ok, `logout elsewhere answered ${ended.status}`);
    // Any admin call now answers 401 (the live feed's reconnect may get there first).
    await page
      .getByRole("tab", { name: "Lease Aanvragen" })
      .click({ timeout: 2000 })
      .catch(() => undefined);
    await page.waitForURL("**/admin-login");
  }
});
