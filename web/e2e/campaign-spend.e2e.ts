// Campagnes, against the real stack: a Meta spend export imported (its bad row named, the same file
// again changing nothing), linked to its utm_campaign, counted in the campaign report and its CSV; a
// day's spend typed in; the report says when its figures are being updated and never downloads the
// old period's figures as the new.
import { randomBytes } from "node:crypto";
import { assert, assertEqual, waitFor, test } from "./fixtures";
import { amsterdamToday, dismissNotice, expectNotice, importSpendExport, openTab } from "./admin/helpers";

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
