// A lead past "Gereageerd" cannot fall back by a status button: its detail shows none, a status
// click from a panel opened before the offer is refused with the reason, and moving back is "Fase
// terugzetten", which first asks, naming the stage and its amount, is audited in Logboek, and takes
// the offer out of the campaign report. As staff would: the lead arrives from an ad through the form.
import { randomBytes } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { assert, assertEqual, MOBILE, test, waitFor, ADMIN_USERNAME } from "./fixtures";
import {
  adminApi,
  counter,
  dismissNotice,
  expectNotice,
  newLead,
  openLead,
  openTab,
  postLead,
  postNewLead,
  saveStage,
  sendQuoteForm,
  todaysReportRow,
  waitForCounter,
} from "./admin/helpers";

const STATUS_BUTTONS = /^Markeer als (Bekeken|Gereageerd)$/;

/** The campaign's offers in today's report, once its quote is counted. */
async function offersOf(admin: Page, campaign: string, offers: number): Promise<void> {
  await waitFor(
    async () => {
      const row = await todaysReportRow(admin, campaign);
      return row?.leads === 1 && row.offers === offers;
    },
    20_000,
    `the report to count ${offers} offer(s) for ${campaign}`,
  );
}

/** Answers the next confirmation's question, accepting or cancelling it. */
function answerNextDialog(page: Page, accept: boolean): Promise<string> {
  return new Promise((resolve) => {
    page.once("dialog", (dialog) => {
      resolve(dialog.message());
      void (accept ? dialog.accept() : dialog.dismiss());
    });
  });
}

const statusButtons = (detail: Locator) => detail.getByRole("button", { name: STATUS_BUTTONS });

test("lead stages: no status button past Gereageerd, a stale one refused, and Fase terugzetten asks, is audited and leaves the report right", async ({
  world,
  signedIn,
}) => {
  test.setTimeout(90_000);
  const tag = randomBytes(3).toString("hex");
  const campaign = `terug-${tag}`;
  const company = `Terugzet ${tag} BV`;

  // A visitor from a Meta ad, with analytics consent, sends the quote form.
  const { page: visitor } = await world.open(
    `/?utm_source=facebook&utm_medium=paid_social&utm_campaign=${campaign}`,
  );
  const banner = visitor.getByRole("dialog");
  await banner.getByRole("button", { name: "Instellingen" }).click();
  await banner.getByLabel("Analytisch").check();
  await banner.getByRole("button", { name: "Voorkeuren Opslaan" }).click();
  await banner.waitFor({ state: "hidden" });
  await sendQuoteForm(visitor, { email: `terug-${tag}@voorbeeld.nl`, companyName: company });

  const admin = signedIn.page;
  await openTab(admin, "Lease Aanvragen");
  await admin.getByRole("button", { name: "Vernieuwen" }).click();
  const detail = await openLead(admin, company);
  await offersOf(admin, campaign, 0);

  // A second panel (a colleague, or another tab) has the lead open from before the offer.
  const stale = (await world.signedIn()).page;
  await openTab(stale, "Lease Aanvragen");
  const staleDetail = await openLead(stale, company);
  await staleDetail.getByRole("button", { name: "Markeer als Gereageerd" }).waitFor();

  // The offer: no status button beside it any more.
  const stage = await saveStage(admin, detail, "Offerte verstuurd", { "Maandbedrag (€)": "489" }, "Offerte");
  await stage.getByTestId("stage-summary").filter({ hasText: "€ 489,00" }).waitFor();
  assertEqual(await statusButtons(detail).count(), 0, "no status buttons on an Offerte lead");
  await offersOf(admin, campaign, 1);

  // The stale panel's click is refused by the server, says why, and then shows the offer.
  await staleDetail.getByRole("button", { name: "Markeer als Gereageerd" }).click();
  await expectNotice(
    stale,
    "Status Niet Gewijzigd",
    'Deze aanvraag staat op Offerte verstuurd. Terug naar Gereageerd kan alleen met "Fase terugzetten" in de aanvraag, na bevestiging van wat er vervalt.',
  );
  await staleDetail.getByTestId("badge").filter({ hasText: "Offerte" }).waitFor();
  await waitFor(
    async () => (await statusButtons(staleDetail).count()) === 0,
    5000,
    "the stale panel's buttons gone",
  );
  await offersOf(admin, campaign, 1);

  // Fase terugzetten asks first, naming the stage and its amount; cancelled, nothing changes.
  const moveBack = detail.getByRole("button", { name: "Fase terugzetten" });
  const patches: string[] = [];
  admin.on("request", (request) => {
    if (request.method() === "PATCH") patches.push(request.url());
  });
  let question = answerNextDialog(admin, false);
  await moveBack.click();
  assertEqual(
    await question,
    "Fase terugzetten naar Gereageerd?\n\nDe fase Offerte verstuurd vervalt met het maandbedrag van € 489,00. De offerte telt dan niet meer mee in het campagnerapport.",
    "the confirmation names the stage, its amount and the report",
  );
  await admin.waitForTimeout(300);
  assertEqual(patches, [], "nothing sent after Annuleren");
  await detail.getByTestId("badge").filter({ hasText: "Offerte" }).waitFor();

  // Confirmed: back at Gereageerd, the amount gone, on the timeline, out of the report.
  question = answerNextDialog(admin, true);
  await moveBack.click();
  await question;
  await expectNotice(admin, "Fase Teruggezet", "De aanvraag staat weer op Gereageerd.");
  await dismissNotice(admin);
  await detail.getByTestId("badge").filter({ hasText: "Gereageerd" }).waitFor();
  await stage.getByTestId("stage-summary").waitFor({ state: "detached" });
  await detail
    .getByTestId("timeline-item")
    .filter({ hasText: "Status gewijzigd van Offerte naar Gereageerd" })
    .waitFor();
  await offersOf(admin, campaign, 0);

  // A contract: no status buttons either, and its move back names the commission.
  await saveStage(admin, detail, "Contract getekend", { "Commissie (€)": "1.200" }, "Getekend");
  assertEqual(await statusButtons(detail).count(), 0, "no status buttons on a Getekend lead");
  await moveBack.waitFor();
  await offersOf(admin, campaign, 1);
  for (const [width, viewport] of [
    ["1280", { width: 1280, height: 900 }],
    ["390", { width: 390, height: MOBILE.height }],
  ] as const) {
    await admin.setViewportSize(viewport);
    await stage.scrollIntoViewIfNeeded();
    await admin.screenshot({ path: test.info().outputPath(`fase-getekend-${width}.png`) });
  }

  // Logboek: the move back by name, with what it dropped.
  await openTab(admin, "Logboek");
  const row = admin
    .getByTestId("logboek-regel")
    .filter({ hasText: "Fase aanvraag teruggezet" })
    .filter({ hasText: "€ 489,00" });
  await row.first().waitFor({ timeout: 15_000 });
  assert(!(await row.first().innerText()).includes("@"), "no e-mail address in the log");
});

const COUNTERS = ["Nieuwe Aanvragen", "Bekeken", "Gereageerd", "Offerte", "Getekend", "Verloren"];

/** Every counter tile's figure by its label, Totaal included. */
async function counters(page: Page): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  for (const label of [...COUNTERS, "Totaal"]) figures[label] = Number(await counter(page, label));
  return figures;
}

test("lead counters: one per stage, adding up to Totaal; an opened lead counts as Bekeken and offers no Markeer als Bekeken", async ({
  world,
  signedIn,
}) => {
  const tag = randomBytes(3).toString("hex");
  const page = signedIn.page;
  const stages = [
    { status: "offerte", monthlyAmount: 489 },
    { status: "getekend", commission: 1200 },
    { status: "verloren", lostReason: "te duur" },
  ];
  for (const [i, body] of stages.entries()) {
    const id = await postLead(world, {
      email: `teller-${i}-${tag}@voorbeeld.nl`,
      companyName: `Teller ${i} ${tag}`,
    });
    assertEqual(
      (await adminApi(page, "PATCH", `/api/admin/lease-requests/${id}/status`, body)).status,
      200,
      body.status,
    );
  }
  const company = `Teller nieuw ${tag}`;
  await postLead(world, { email: `teller-nieuw-${tag}@voorbeeld.nl`, companyName: company });
  await openTab(page, "Lease Aanvragen");
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  await page.getByTestId("lease-item").filter({ hasText: company }).waitFor();

  const before = await counters(page);
  const sum = (figures: Record<string, number>) => COUNTERS.reduce((n, label) => n + figures[label]!, 0);
  assertEqual(sum(before), before.Totaal, `the six counters add up to Totaal: ${JSON.stringify(before)}`);
  for (const label of ["Nieuwe Aanvragen", "Offerte", "Getekend", "Verloren"])
    assert(before[label]! >= 1, `${label} counts this test's lead`);

  // Opening the new one: its badge and its counter say Bekeken, and no button offers it again.
  const detail = await openLead(page, company);
  await detail.getByTestId("badge").filter({ hasText: "Bekeken" }).waitFor();
  await waitForCounter(page, "Bekeken", String(before.Bekeken! + 1));
  const after = await counters(page);
  assertEqual(after["Nieuwe Aanvragen"], before["Nieuwe Aanvragen"]! - 1, "one fewer new");
  assertEqual(sum(after), after.Totaal, "still adding up");
  await detail.getByRole("button", { name: "Markeer als Gereageerd" }).waitFor();
  assertEqual(
    await detail.getByRole("button", { name: "Markeer als Bekeken" }).count(),
    0,
    "no Markeer als Bekeken",
  );

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: MOBILE.height },
  ]) {
    await page.setViewportSize(viewport);
    await page.getByTestId("lead-counters").scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`tellers-${viewport.width}.png`) });
  }
});

test("admin: a lead's road to a contract: an offer, then a signed contract with its commission, in Dutch notation", async ({
  world,
  signedIn,
}) => {
  const LEAD = newLead();
  await postNewLead(world, LEAD);
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
