// A lead's follow-up day, against the real stack: it marks the request in the list, fills "Vandaag
// opvolgen", is counted in the company's e-mail about the next quote and in a line of the header on
// the day's first visit, and shows in Logboek as a Dutch date.
import { expectAccessible } from "./axe";
import { assert, assertEqual, waitFor, test, ADMIN_USERNAME } from "./fixtures";
import { expectNotice, openTab, postLeadWithPhone, signIn, signedInWithAlerts } from "./admin/helpers";

test("staff: a follow-up day marks the request, fills 'Vandaag opvolgen', and is counted in the e-mail and the day's first visit", async ({
  world,
}) => {
  const page = await signedInWithAlerts(world);
  const email = `opvolgen-${Date.now()}@staff-e2e.nl`;
  const leadId = await postLeadWithPhone(world, email, "Opvolg BV");
  const { rows } = await world.sql.query<{ yesterday: string; shown: string }>(
    `SELECT to_char((now() AT TIME ZONE 'Europe/Amsterdam')::date - 1, 'YYYY-MM-DD') AS yesterday,
            to_char((now() AT TIME ZONE 'Europe/Amsterdam')::date - 1, 'DD-MM-YYYY') AS shown`,
  );
  const { yesterday, shown } = rows[0]!;

  await openTab(page, "Lease Aanvragen");
  const item = page.getByTestId("lease-item").filter({ hasText: email }).first();
  await item.click();
  const detail = page.getByTestId("lease-detail");
  await detail.getByLabel("Opvolgen op").fill(yesterday);
  await detail.getByRole("button", { name: "Opvolgdatum opslaan" }).click();
  await expectNotice(page, "Opvolgdatum Opgeslagen", `Opvolgen op ${shown}.`);
  await item.getByText(`Opvolgen te laat (${shown})`).waitFor();
  await expectAccessible(page, "the list with a follow-up badge");

  const due = await page.evaluate(() =>
    fetch("/api/admin/lease-requests?pageSize=1")
      .then((r) => r.json())
      .then((body: { counts: { followUpDue: number } }) => body.counts.followUpDue),
  );
  assert(due >= 1, "counted as due");
  const filterButton = page.getByRole("button", { name: `Vandaag opvolgen (${due})` });
  await filterButton.click();
  assertEqual(await filterButton.getAttribute("aria-pressed"), "true", "the filter is on");
  await waitFor(
    async () => (await page.getByTestId("lease-item").count()) === due,
    5000,
    "only the due ones listed",
  );
  await item.waitFor();
  await filterButton.click();

  // The company's e-mail about the next quote counts them.
  const next = await postLeadWithPhone(world, `daarna-${Date.now()}@staff-e2e.nl`, "Daarna BV");
  const mail = await waitFor(
    () => world.receiver.accepted().find((m) => m.text.includes(next)),
    15_000,
    "the next quote's e-mail",
  );
  assert(mail, "the next quote's e-mail");
  assert(
    mail.text.includes(`Vandaag op te volgen: ${due} ${due === 1 ? "aanvraag" : "aanvragen"}`),
    "the e-mail counts the follow-ups due",
  );

  // A fresh visit names them in a line of the header (on a phone too), never a notice over the
  // tabs; "Bekijk ze" opens the list filtered to them.
  const { page: fresh } = await world.open("/admin-login", { viewport: { width: 390, height: 844 } });
  await signIn(fresh, ADMIN_USERNAME, world.password);
  await fresh.getByTestId("welkom").waitFor();
  const line = fresh.getByTestId("opvolgen-vandaag");
  await line.filter({ hasText: "voor vandaag (of eerder) op opvolgen." }).waitFor();
  await fresh.waitForTimeout(500);
  assertEqual(
    await fresh.getByTestId("notice").filter({ hasText: "Opvolgen" }).count(),
    0,
    "no notice about the follow-ups",
  );
  await fresh.screenshot({ path: test.info().outputPath("opvolgen-390.png") });
  await line.getByRole("link", { name: "Bekijk ze" }).click();
  const filtered = fresh.getByRole("button", { name: `Vandaag opvolgen (${due})` });
  await waitFor(
    async () => (await filtered.getAttribute("aria-pressed")) === "true",
    5000,
    "the list filtered to the follow-ups due",
  );
  await fresh.getByTestId("lease-item").filter({ hasText: email }).waitFor();

  // Cleared again, so the other stories see no follow-ups.
  await detail.getByRole("button", { name: "Wissen" }).click();
  await expectNotice(page, "Opvolgdatum Opgeslagen", "De opvolgdatum is gewist.");
  await waitFor(async () => (await item.getByText(/Opvolgen/).count()) === 0, 5000, "no badge once cleared");

  // The log says the day as a Dutch sentence does (28-11-2026), not as 2026-11-28.
  await waitFor(
    async () =>
      (
        await world.sql.query(
          "SELECT 1 FROM gateway.audit_log WHERE action = 'lead.follow_up_changed' AND target = $1 AND detail = $2",
          [leadId, yesterday],
        )
      ).rowCount === 1,
    15_000,
    "the follow-up change in the audit log",
  );
  await openTab(page, "Logboek");
  const entry = page.getByTestId("logboek-regel").filter({ hasText: leadId });
  await entry
    .filter({ hasText: `Opvolgdatum gewijzigd (${shown})` })
    .first()
    .waitFor();
  assert(!(await entry.allInnerTexts()).join("\n").includes(yesterday), "no ISO date in the log");
});
