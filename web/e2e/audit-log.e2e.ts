// Against the real stack: a lead's status changed and a company setting saved in the
// panel show in "Logboek" with the admin who did it (they travel from leads and settings to the
// gateway over the audit queue), and the log filters by action, admin, target and period.
import { expectAccessible } from "./axe";
import { ADMIN_USERNAME, assert, assertEqual, test, waitFor, type AdminWorld } from "./fixtures";
import { dismissNotice, expectNotice, openTab, postLead as postQuote, signIn } from "./admin/helpers";

const postLead = (world: AdminWorld, email: string) =>
  postQuote(world, {
    carUrl: "https://www.autoscout24.nl/aanbod/logboek-e2e",
    contactNumber: "0613131313",
    email,
    companyName: "Logboek Klant BV",
  });

/** An Amsterdam day as the date inputs take it (YYYY-MM-DD), `days` from today. */
const amsterdamDay = (days = 0) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(
    new Date(Date.now() + days * 24 * 3600_000),
  );

test("logboek: a status change and a settings change in the panel, by whom, filtered", async ({ world }) => {
  // The worker's stack is shared with the files before this one: only this test's entries count.
  const started = new Date();
  const email = `logboek-${Date.now()}@audit-e2e.nl`;
  const leadId = await postLead(world, email);
  const { page } = await world.open("/admin-login");
  await signIn(page, ADMIN_USERNAME, world.password);
  await page.getByTestId("welkom").waitFor();
  await dismissNotice(page);

  // A status change of the lead.
  await openTab(page, "Lease Aanvragen");
  const item = page.getByTestId("lease-item").filter({ hasText: email }).first();
  await item.waitFor();
  await item.click();
  const detail = page.getByTestId("lease-detail");
  await detail.getByRole("button", { name: "Markeer als Gereageerd" }).click();
  await expectNotice(page, "Status Bijgewerkt");
  await dismissNotice(page);

  // A company setting.
  await openTab(page, "Bedrijfsgegevens");
  await page.getByRole("button", { name: "Bewerken" }).click();
  await page.getByLabel("Bedrijfsnaam").fill(`Logboek Lease ${Date.now()}`);
  await page.getByRole("button", { name: "Opslaan", exact: true }).click();
  await expectNotice(page, "Instellingen Opgeslagen");
  await dismissNotice(page);

  // Both arrive over the queue; then the log shows them.
  await waitFor(
    async () =>
      (
        await world.sql.query(
          "SELECT 1 FROM gateway.audit_log WHERE at >= $2 AND ((action = 'lead.status_changed' AND target = $1 AND detail LIKE '% → gereageerd') OR (action = 'settings.company_changed' AND detail LIKE '%companyName%'))",
          [leadId, started],
        )
      ).rowCount === 2,
    15_000,
    "both entries in the audit log",
  );
  const rows = page.getByTestId("logboek-regel");
  await openTab(page, "Logboek");
  // In words: the statuses by their badges, the lead by its name as a link (its id beside it).
  const statusRow = rows
    .filter({ hasText: "Status aanvraag gewijzigd" })
    .filter({ hasText: /\(van (Nieuw|Bekeken) naar Gereageerd\)/ });
  await statusRow.filter({ hasText: leadId }).filter({ hasText: ADMIN_USERNAME }).first().waitFor();
  await statusRow.first().getByRole("link", { name: "Aanvraag van Logboek Klant BV" }).waitFor();
  await rows
    .filter({ hasText: "Bedrijfsgegevens gewijzigd" })
    .filter({ hasText: "(bedrijfsnaam)" })
    .filter({ hasText: ADMIN_USERNAME })
    .first()
    .waitFor();
  const shown = (await rows.allInnerTexts()).join("\n");
  assert(!shown.includes(email), "no e-mail address in the log");
  assert(!/ → |\bid [0-9a-f]{8}\b|wachtrij/.test(shown), `no raw codes in the log: ${shown.slice(0, 300)}`);
  await expectAccessible(page, "Logboek with its filters");

  // By action: only settings entries.
  await page.getByLabel("Actie", { exact: true }).selectOption("settings.company_changed");
  await waitFor(
    async () => (await rows.filter({ hasText: "Status aanvraag gewijzigd" }).count()) === 0,
    5000,
    "the status change filtered out",
  );
  await rows.filter({ hasText: "Bedrijfsgegevens gewijzigd" }).first().waitFor();
  await page.getByLabel("Actie", { exact: true }).selectOption("");

  // By target: only this lead's entries, every one by this admin.
  await page.getByLabel("Waarop", { exact: true }).fill(leadId);
  await waitFor(
    async () => (await rows.filter({ hasText: "Bedrijfsgegevens gewijzigd" }).count()) === 0,
    5000,
    "the settings entry filtered out",
  );
  await statusRow.first().waitFor();
  for (const text of await rows.allInnerTexts()) {
    assert(text.includes(leadId), `only the lead's entries, got "${text}"`);
    assert(text.includes(ADMIN_USERNAME), `by ${ADMIN_USERNAME}, got "${text}"`);
  }

  // By admin and period: another admin has none; from tomorrow there are none; today has them.
  await page.getByLabel("Beheerder", { exact: true }).fill("niemand");
  await page.getByText("Geen vermeldingen.").waitFor();
  await page.getByLabel("Beheerder", { exact: true }).fill(ADMIN_USERNAME);
  await statusRow.first().waitFor();
  await page.getByLabel("Vanaf", { exact: true }).fill(amsterdamDay(1));
  await page.getByText("Geen vermeldingen.").waitFor();
  await page.getByLabel("Vanaf", { exact: true }).fill(amsterdamDay(0));
  await page.getByLabel("Tot en met", { exact: true }).fill(amsterdamDay(0));
  await statusRow.first().waitFor();
  await page.getByLabel("Tot en met", { exact: true }).fill(amsterdamDay(-1));
  await page.getByText("Geen vermeldingen.").waitFor();
  await page.getByLabel("Tot en met", { exact: true }).fill(amsterdamDay(0));
  await page.getByLabel("Vanaf", { exact: true }).fill("");

  // The lead's link opens it in Lease Aanvragen; once deleted, the log says so and links no more.
  await statusRow.first().getByRole("link", { name: "Aanvraag van Logboek Klant BV" }).click();
  await detail.getByRole("heading", { name: "Logboek Klant BV" }).waitFor();
  page.once("dialog", (dialog) => void dialog.accept());
  await detail.getByRole("button", { name: "Verwijderen" }).click();
  await expectNotice(page, "Aanvraag Verwijderd");
  await openTab(page, "Logboek");
  await page.getByLabel("Waarop", { exact: true }).fill(leadId);
  await rows.filter({ hasText: "Aanvraag verwijderd" }).first().waitFor({ timeout: 15_000 });
  await statusRow.filter({ hasText: "Aanvraag bestaat niet meer" }).first().waitFor();
  assertEqual(await rows.getByRole("link").count(), 0, "no link to a deleted request");
});
