// How the promises are kept, as staff read it: three quote requests arrive, one is
// answered by a call that reached the customer, one by a follow-up e-mail sent from the panel
// (through the local SendGrid), one not at all; the "Reactietijden" tab shows them per week, per
// owner and per kind (quote requests apart from contact messages), in working and clock time, as a
// table at 1280 px and as cards at 390 px, and its CSV holds the same figures.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { dutchDuration } from "@lease/contracts";
import { assert, assertEqual, expect, test, waitFor } from "./fixtures";
import { adminApi, openLead, openTab, postLead, saveSettings } from "./admin/helpers";

const MAIL = { key: "SG.e2e-reactie-0123456789", sender: "noreply@reactie-e2e.nl" };

test("admin: the response report shows a call and an e-mail as first responses, per week and owner, on desktop and phone", async ({
  world,
  signedIn,
}) => {
  const tag = randomBytes(3).toString("hex");
  const page = signedIn.page;
  await saveSettings(page, {
    companyName: "Reactie Lease E2E",
    sendgridApiKey: MAIL.key,
    fromEmailAddress: MAIL.sender,
  });
  const leads = {
    called: { email: `gebeld.${tag}@example.nl`, companyName: `Gebeld ${tag} BV` },
    mailed: { email: `gemaild.${tag}@example.nl`, companyName: `Gemaild ${tag} BV` },
    waiting: { email: `wacht.${tag}@example.nl`, companyName: `Wacht ${tag} BV` },
  };
  const called = await postLead(world, leads.called);
  const mailed = await postLead(world, leads.mailed);
  const waiting = await postLead(world, leads.waiting);
  const arrivedAgo = (id: string, minutes: number) =>
    world.sql.query(
      "UPDATE leads.lease_requests SET created_at = now() - make_interval(mins => $2) WHERE id = $1",
      [id, minutes],
    );

  // The call: the customer was reached 2 hours 15 minutes after the request came in. (The panel's
  // call log is the owner work's; the call goes in through its API, as the panel will send it.)
  await arrivedAgo(called, 135);
  assertEqual(
    (await adminApi(page, "POST", `/api/admin/lease-requests/${called}/calls`, { outcome: "bereikt" }))
      .status,
    201,
    "the call logged",
  );

  // The e-mail: the follow-up from the lead's detail, about 45 minutes after the request.
  await openTab(page, "Lease Aanvragen");
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  await openLead(page, leads.mailed.companyName);
  const [compose] = await Promise.all([
    signedIn.context.waitForEvent("page"),
    page.getByRole("button", { name: "E-mail Versturen" }).click(),
  ]);
  const message = compose.getByLabel("Bericht");
  await waitFor(
    async () => (await message.inputValue()).includes("[Voeg hier"),
    30_000,
    "the pre-filled body",
  );
  await message.fill(
    (await message.inputValue()).replace("[Voeg hier uw persoonlijke bericht toe]", "Hierbij de offerte."),
  );
  await arrivedAgo(mailed, 45);
  await compose.getByRole("button", { name: "Verzenden" }).click();
  await waitFor(
    () => world.receiver.accepted().find((m) => m.to[0] === leads.mailed.email),
    20_000,
    "the follow-up at SendGrid",
  );
  await waitFor(
    async () =>
      (await world.sql.query("SELECT first_response_kind FROM leads.lease_requests WHERE id = $1", [mailed]))
        .rows[0]?.first_response_kind === "email",
    20_000,
    "the e-mail recorded as the first response",
  );

  // The three moved together into a past week of their own (every test shares this stack, and
  // today holds other tests' leads): their times to a first response stay as they were.
  const weeksBack = 8 + Math.floor(Math.random() * 30);
  const ids = [called, mailed, waiting];
  await world.sql.query(
    `UPDATE leads.lease_requests SET created_at = created_at - make_interval(weeks => $2),
       response_due_at = response_due_at - make_interval(weeks => $2),
       first_response_at = first_response_at - make_interval(weeks => $2)
     WHERE id = ANY($1::uuid[])`,
    [ids, weeksBack],
  );
  const { rows } = await world.sql.query<{
    id: string;
    week: string;
    working: number | null;
    clock: number | null;
    owner: string | null;
  }>(
    `SELECT l.id, to_char(l.received_week, 'YYYY-MM-DD') AS week, l.response_working_minutes AS working,
            l.response_clock_minutes AS clock, s.username AS owner
       FROM leads.lease_requests l LEFT JOIN leads.staff s ON s.admin_id = l.owner_id
      WHERE l.id = ANY($1::uuid[])`,
    [ids],
  );
  const row = (id: string) => rows.find((r) => r.id === id)!;
  assertEqual(row(called).clock, 135, "the call's clock minutes");
  const mailClock = row(mailed).clock!;
  assert(mailClock >= 45 && mailClock <= 47, `the e-mail's clock minutes: ${mailClock}`);
  const weeks = [...new Set(rows.map((r) => r.week))].sort();
  const from = weeks[0]!;
  const to = new Date(Date.parse(`${weeks.at(-1)}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);
  const working = [row(called).working!, row(mailed).working!].sort((a, b) => a - b);

  // The report on a 1280 px screen: the period chosen, the totals and a table per grouping.
  await openTab(page, "Reactietijden");
  await page.getByLabel("Periode").selectOption({ label: "Eigen periode" });
  await page.getByLabel("Van", { exact: true }).fill(from);
  await page.getByLabel("Tot en met").fill(to);
  await page.getByRole("button", { name: "Toon" }).click();
  const totals = page.getByTestId("response-totals");
  const total = (label: string) =>
    totals
      .locator("div")
      .filter({ has: page.getByText(label, { exact: true }) })
      .locator("dd");
  await expect(total("Aanvragen")).toHaveText("3");
  await expect(total("Beantwoord")).toHaveText("2");
  await expect(total("Nooit beantwoord")).toHaveText("1");
  // Both answered within the promise; the one left waiting is past its deadline.
  await expect(total("Binnen belofte")).toHaveText("67%");
  await expect(total("Mediaan (kloktijd)")).toHaveText(dutchDuration(mailClock));
  await expect(total("Mediaan (werktijd)")).toHaveText(dutchDuration(working[0]!));

  const weekRows = page.getByTestId("response-week").getByTestId("response-row");
  await expect(weekRows).toHaveCount(weeks.length);
  const cell = (scope: ReturnType<typeof page.getByTestId>, column: string) =>
    scope.locator(`[data-column="${column}"]`);
  if (weeks.length === 1) {
    const week = weekRows.first();
    await expect(cell(week, "leads")).toHaveText("3");
    await expect(cell(week, "unanswered")).toHaveText("1");
    await expect(cell(week, "p90Clock")).toHaveText("2 u 15 min");
    await expect(cell(week, "medianClock")).toHaveText(dutchDuration(mailClock));
    await expect(cell(week, "p90")).toHaveText(dutchDuration(working[1]!));
  }
  const ownerRow = page
    .getByTestId("response-eigenaar")
    .getByTestId("response-row")
    .filter({
      has: page.getByRole("rowheader", { name: row(called).owner ?? "Niet toegewezen", exact: true }),
    });
  await expect(ownerRow).toHaveCount(1);
  const owners = new Set(rows.map((r) => r.owner));
  await expect(page.getByTestId("response-eigenaar").getByTestId("response-row")).toHaveCount(owners.size);
  // No visit was recorded for these requests: one channel row, "Onbekende herkomst".
  const channels = page.getByTestId("response-kanaal").getByTestId("response-row");
  await expect(channels).toHaveCount(1);
  await expect(channels.getByRole("rowheader")).toHaveText("Onbekende herkomst");
  await expect(cell(channels, "leads")).toHaveText("3");
  // Quote requests and contact messages apart, each against its own promise.
  const kind = (label: string) =>
    page
      .getByTestId("response-soort")
      .getByTestId("response-row")
      .filter({ has: page.getByRole("rowheader", { name: label, exact: true }) });
  await expect(cell(kind("Lease aanvragen"), "leads")).toHaveText("3");
  await expect(kind("Contactberichten")).toHaveCount(1);

  // The CSV: the same figures, as the download staff open in Excel.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  assertEqual(download.suggestedFilename(), `reactietijden-${from}-${to}.csv`, "the CSV's name");
  const csv = await readFile((await download.path())!, "utf8");
  assert(
    csv.includes(
      `"Totaal";"${dd(from)} t/m ${dd(to)}";"3";"2";"1";"2";"1";"66,7";"${working[0]}";"${working[1]}";"${mailClock}";"135"`,
    ),
    `the CSV's total line: ${csv.split("\r\n").find((l) => l.startsWith('"Totaal"'))}`,
  );

  // On a 390 px phone: a card per row, every figure labelled, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("response-week").locator("table")).toBeHidden();
  const cards = page.getByTestId("response-week").getByTestId("response-card");
  await expect(cards).toHaveCount(weeks.length);
  await expect(cards.first()).toContainText("Mediaan (kloktijd)");
  await expect(page.getByTestId("response-eigenaar").getByTestId("response-card").first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 0, `the page is ${overflow} px wider than the phone`);
});

/** "02-03-2026" from "2026-03-02". */
const dd = (day: string) => day.split("-").reverse().join("-");
