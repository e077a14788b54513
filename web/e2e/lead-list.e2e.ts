// The Lease Aanvragen list, against the real stack: a repeat quote marked "Mogelijk dubbel"; search,
// the status filter and the CSV export that follows them, its dates in Amsterdam time; a search
// without results says so; deleting a request clears the selection and the list.
import { assert, assertEqual, waitFor, test } from "./fixtures";
import {
  adminApi,
  expectNotice,
  newLead,
  openTab,
  postLead,
  postLeadFrom,
  postNewLead,
  removeAllLeads,
  signedInPage,
  waitForCounter,
} from "./admin/helpers";

test('admin: a repeat quote is marked "Mogelijk dubbel"; search, status filter and CSV export follow the filter', async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  // One request answered earlier, then the same person twice.
  const LEAD = newLead();
  await removeAllLeads(world);
  const answeredId = await postNewLead(world, LEAD);
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

test("panel: a search without results says so, not 'Nog geen lease aanvragen ontvangen'", async ({
  world,
}) => {
  const page = await signedInPage(world);
  await postLeadFrom(world, "zoeken@panel-e2e.nl");
  await openTab(page, "Lease Aanvragen");
  await page.getByLabel("Zoeken").fill("bestaat-echt-niet-xyz");
  await page.getByRole("button", { name: "Zoeken", exact: true }).click();
  await page.getByText("Geen lease aanvragen gevonden voor deze zoekopdracht.").waitFor();
  assertEqual(
    await page.getByText("Nog geen lease aanvragen ontvangen").count(),
    0,
    "not the empty-list text",
  );
  await page.getByRole("button", { name: "Zoekopdracht wissen" }).click();
  await page.getByTestId("lease-item").filter({ hasText: "zoeken@panel-e2e.nl" }).waitFor();
});

test("panel: the CSV export has its dates in Amsterdam time", async ({ world }) => {
  const page = await signedInPage(world);
  await postLeadFrom(world, "csv@panel-e2e.nl");
  const { rows } = await world.sql.query<{ at: string }>(
    `SELECT to_char(created_at AT TIME ZONE 'Europe/Amsterdam', 'DD-MM-YYYY HH24:MI:SS') AS at
     FROM leads.lease_requests WHERE email = 'csv@panel-e2e.nl'`,
  );
  await openTab(page, "Lease Aanvragen");
  const href = await page.getByRole("link", { name: "Exporteer CSV" }).getAttribute("href");
  const csv = await page.evaluate((url) => fetch(url!).then((r) => r.text()), href);
  const line = csv.split("\r\n").find((row) => row.includes("csv@panel-e2e.nl"));
  assert(line, "the lead is in the export");
  assert(line.startsWith(`"${rows[0]!.at}";`), `Amsterdam time ${rows[0]!.at}, got ${line.split(";")[0]}`);
});

test("admin: deleting the request clears the selection and the list", async ({ world, signedIn }) => {
  const LEAD = newLead();
  await removeAllLeads(world);
  await postNewLead(world, LEAD);
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
