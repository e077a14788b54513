// The campaign report as a marketer reads it the morning after, at 1280 and 390 px:
// yesterday's visits of three campaigns (one from a newsletter whose source name is
// 22 characters) are in the history; the marketer imports Meta's spend export through the panel,
// tries an unknown export and one in dollars, reads the report (the money in view without
// scrolling sideways, the names fixed at the left when the rest is scrolled, no name broken in a
// word, Dutch dates, the previous period labelled), narrows the period (the spend list follows),
// links a spend name to its utm_campaign on a phone and reads the phone's cards; and the Analytics
// tab's Bronnen table with that long source fits its card. Screenshots go to E2E_SHOTS (default
// /tmp/campaign-report-shots), for a person to look at.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { assert, assertEqual, test, waitFor, DESKTOP, type AdminWorld } from "./fixtures";
import {
  amsterdamToday,
  dismissNotice,
  expectNotice,
  importHistoryLines,
  importSpendExport,
  openTab,
} from "./admin/helpers";

/** The phone width the audit looked at. */
const PHONE = { width: 390, height: 844 };
const SHOTS = process.env.E2E_SHOTS ?? "/tmp/campaign-report-shots";
/** The figures a marketer comes for, as the report's cells name their columns. */
const MONEY = ["spend", "leads", "contracts", "costPerLead", "costPerContract", "roas"];
const MONTHS = ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus"].concat([
  "september",
  "oktober",
  "november",
  "december",
]);

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const fullPage = (page.viewportSize()?.width ?? 0) > PHONE.width;
  await page.screenshot({ path: join(SHOTS, name), fullPage });
}

/** The Amsterdam day `offset` days from today, YYYY-MM-DD. */
const day = (offset: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(Date.now() + offset * 86_400_000);

/** "1 december 2026": how the panel's sentences write a day. */
const dutch = (isoDay: string) => {
  const [y, m, d] = isoDay.split("-").map(Number);
  return `${d} ${MONTHS[m! - 1]} ${y}`;
};

/** "3 oktober t/m 1 november 2026" (the year once when both days share it). */
const inWords = (from: string, to: string) =>
  `${from.slice(0, 4) === to.slice(0, 4) ? dutch(from).slice(0, -5) : dutch(from)} t/m ${dutch(to)}`;

/** Visits of history (npm run tracking:import), one page view each, at noon of their day. */
async function importVisits(world: AdminWorld, tag: string, visits: { day: string; page: string }[]) {
  const lines = visits.map((visit, i) => ({
    id: `layout-${tag}-${i}`,
    at: `${visit.day}T10:${String(i).padStart(2, "0")}:00Z`,
    session: `layout-${tag}-${i}`,
    page: visit.page,
  }));
  await importHistoryLines(world, lines);
}

/** Boxes of elements against the box they must lie in (1 px rounding allowed). */
async function outside(container: Locator, cells: Locator): Promise<string[]> {
  const box = await container.boundingBox();
  assert(box, "the container is on screen");
  const out: string[] = [];
  for (const cell of await cells.all()) {
    const b = await cell.boundingBox();
    const name = (await cell.getAttribute("data-column")) ?? (await cell.innerText());
    if (!b || b.x < box.x - 1 || b.x + b.width > box.x + box.width + 1)
      out.push(`${name}: ${b ? `${Math.round(b.x)}-${Math.round(b.x + b.width)}` : "hidden"}`);
  }
  if (out.length) out.unshift(`container ${Math.round(box.x)}-${Math.round(box.x + box.width)}`);
  return out;
}

/**
 * Names broken inside a word: a line of a name's text may end only after a space or a hyphen, and
 * with `oneLine` a name must be one line. Nothing may be cut ("…"). Read from the boxes of each
 * character, as the browser laid them out.
 */
async function brokenNames(names: Locator, oneLine = true): Promise<string[]> {
  return names.evaluateAll(
    (elements, oneLine) =>
      elements.flatMap((element) => {
        const text = element.textContent ?? "";
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        const tops: number[] = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode())
          for (let i = 0; i < node.textContent!.length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const rect = range.getClientRects()[0];
            tops.push(rect ? Math.round(rect.top) : NaN);
          }
        const problems: string[] = [];
        for (let i = 1; i < tops.length; i++)
          if (tops[i]! > tops[i - 1]! + 2 && !/[\s-]/.test(text[i - 1]!))
            problems.push(`broken at "${text.slice(0, i)}|${text.slice(i)}"`);
        if (oneLine && new Set(tops).size > 1) problems.push(`${new Set(tops).size} lines`);
        if (element.scrollWidth > element.clientWidth + 1) problems.push("cut off");
        return problems.length ? [`${text}: ${problems.join(", ")}`] : [];
      }),
    oneLine,
  );
}

test("campaign report at 1280 and 390 px: spend imported in the panel, the money in view, names fixed and whole, phone cards, file errors kept, Dutch dates", async ({
  world,
  signedIn,
}) => {
  test.setTimeout(180_000);
  const tag = randomBytes(3).toString("hex");
  const meta = `voorjaarsactie-leasedeals-${tag}`;
  const google = `Zomer Leasing ${tag}`;
  // 22 characters and no place to break: the audit's newsletter source.
  const longSource = `nieuwsbrief${tag}lease`.padEnd(22, "x").slice(0, 22);
  assertEqual(longSource.length, 22, "the long source's length");
  const yesterday = day(-1);
  const today = amsterdamToday();
  await importVisits(world, tag, [
    ...[0, 1, 2].map(() => ({
      day: yesterday,
      page: `/financiele-lease?utm_source=facebook&utm_medium=paid_social&utm_campaign=${meta}`,
    })),
    ...[0, 1].map(() => ({
      day: yesterday,
      page: `/?utm_source=google&utm_medium=cpc&utm_campaign=${encodeURIComponent(google)}`,
    })),
    ...[0, 1].map(() => ({
      day: yesterday,
      page: `/?utm_source=${longSource}&utm_medium=email&utm_campaign=december-${tag}`,
    })),
  ]);

  const admin = signedIn.page;
  await admin.setViewportSize(DESKTOP);
  await openTab(admin, "Campagnes");

  // The marketer tries a file that is no platform's export: the reason stays beside the field.
  const field = admin.getByLabel("Export van Meta, TikTok, Snapchat of Google Ads (csv)");
  const result = await importSpendExport(admin, "klanten.csv", "Naam,Plaats\nJansen,Utrecht\n");
  const fileError = result.getByTestId("spend-import-error");
  await fileError.filter({ hasText: "Dit bestand is geen bekende export" }).waitFor({ timeout: 30_000 });
  assertEqual(
    await field.getAttribute("aria-describedby"),
    await result.getAttribute("id"),
    "the field names where its outcome is",
  );
  assertEqual(await field.getAttribute("aria-invalid"), "true", "the field is marked invalid");
  // Longer than a notice stays: the reason is still there.
  await admin.waitForTimeout(6000);
  assert(await fileError.isVisible(), "the file's error is still beside the field after 6 s");
  assertEqual(await admin.getByTestId("notice").count(), 0, "no notice over the tab");
  await screenshot(admin, "import-unknown-1280.png");

  // Then an export in dollars: refused as a whole, said beside the field in place of the first.
  await importSpendExport(
    admin,
    "meta-usd.csv",
    `Campaign name,Day,Amount spent (USD)\n${meta},${yesterday},120.50\n`,
  );
  await fileError
    .filter({ hasText: "Alleen bedragen in euro worden ingelezen; deze export is in USD" })
    .waitFor();
  assert(!(await result.innerText()).includes("geen bekende export"), "the earlier error is replaced");

  // The right export (Meta, Dutch, by day), with one line Meta never writes.
  const csv = [
    "Campagnenaam,Dag,Uitgegeven bedrag (EUR),Weergaven",
    `${meta},${yesterday},"120,50",1000`,
    `${meta},${today},"179,50",800`,
    `${meta},gisteren,"1,00",1`,
  ].join("\n");
  await importSpendExport(admin, "meta-export.csv", csv);
  await result
    .filter({ hasText: "Meta (Facebook, Instagram): 2 ingelezen, 0 ongewijzigd, 1 regel overgeslagen." })
    .waitFor({ timeout: 30_000 });
  assertEqual(await fileError.count(), 0, "no file error once the file was read");
  assertEqual(await field.getAttribute("aria-invalid"), null, "the field is no longer invalid");
  await dismissNotice(admin);

  // The report at 1280 px: the campaign's money in view within its panel, without scrolling.
  const scroller = admin.getByTestId("campaign-report-scroll");
  const report = admin.getByTestId("campaign-report");
  const metaRow = report.getByTestId("report-row").filter({ hasText: meta });
  await metaRow.locator('[data-column="spend"]').filter({ hasText: "€ 300,00" }).waitFor({ timeout: 30_000 });
  await waitFor(
    async () => (await metaRow.locator('[data-column="leads"]').innerText()) === "0",
    10_000,
    "the campaign's row",
  );
  const panel = admin.locator("section").filter({ has: report });
  const money = metaRow.locator(MONEY.map((key) => `[data-column="${key}"]`).join(", "));
  assertEqual(await money.count(), MONEY.length, "the six figures in the row");
  assertEqual(await scroller.evaluate((element) => element.scrollLeft), 0, "not scrolled");
  assertEqual(await outside(scroller, money), [], "the money columns out of the report's view at 1280 px");
  assertEqual(await outside(panel, scroller), [], "the report's view within its panel");
  const heads = report.locator("thead th").filter({ hasText: /Kosten|Aanvragen|Contracten|ROAS/ });
  assertEqual(await outside(scroller, heads.filter({ hasNotText: "Bezoek" })), [], "their headings in view");

  // No name broken inside a word: each on one line, whole.
  const names = report.getByTestId("report-row").filter({ hasText: tag }).getByTestId("report-name");
  await report.getByTestId("report-row").filter({ hasText: google }).waitFor();
  await report.getByTestId("report-row").filter({ hasText: longSource }).waitFor();
  assert((await names.count()) >= 9, "the names of the three campaigns");
  assertEqual(await brokenNames(names), [], "names broken or cut at 1280 px");
  await screenshot(admin, "campagnes-1280.png");

  // Scrolled to the last column (narrower, so there is something to scroll): the names stay put.
  await admin.setViewportSize({ width: 900, height: 800 });
  const [scrollWidth, clientWidth] = await scroller.evaluate((e) => [e.scrollWidth, e.clientWidth]);
  assert(scrollWidth > clientWidth, `the table scrolls at 900 px (${scrollWidth} > ${clientWidth})`);
  const labelCells = metaRow.locator("td, th").filter({ has: admin.getByTestId("report-name") });
  // In view (other tests' campaigns may come first): what shows at a point is only read on screen.
  await labelCells.first().scrollIntoViewIfNeeded();
  const before = await Promise.all((await labelCells.all()).map((cell) => cell.boundingBox()));
  await scroller.evaluate((element) => (element.scrollLeft = element.scrollWidth));
  await waitFor(
    async () => (await scroller.evaluate((e) => e.scrollLeft)) > 0,
    5000,
    "the report scrolled sideways",
  );
  const after = await Promise.all((await labelCells.all()).map((cell) => cell.boundingBox()));
  assertEqual(
    after.map((box) => Math.round(box!.x)),
    before.map((box) => Math.round(box!.x)),
    "Bron, Medium and Campagne where they were",
  );
  const last = metaRow.locator('[data-column="contractRate"]');
  assertEqual(await outside(scroller, last), [], "the last column scrolled into view");
  // The figures pass under the names, not over them: what shows at a name's place is the name.
  const onTop = await labelCells.evaluateAll((cells) =>
    cells.map((cell) => {
      const box = cell.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return !!hit && cell.contains(hit);
    }),
  );
  assertEqual(onTop, [true, true, true], "the names on top of the scrolled figures");
  await screenshot(admin, "campagnes-900-gescrold.png");
  await admin.setViewportSize(DESKTOP);
  await scroller.evaluate((element) => (element.scrollLeft = 0));

  // Dutch dates: the period, the previous one (labelled in the table), the spend list's.
  const start = day(-29);
  const note = admin.getByTestId("cohort-note");
  await note.filter({ hasText: `Periode: ` }).waitFor();
  const period = inWords(start, today);
  assert(
    (await note.innerText()).includes(`Periode: ${period}.`),
    `the period in words: ${await note.innerText()}`,
  );
  await admin.getByLabel("Vergelijk met de vorige periode").check();
  const previousTo = day(-30);
  await note.filter({ hasText: `Vorige periode: ` }).waitFor();
  assert((await note.innerText()).includes(` t/m ${dutch(previousTo)}.`), `the previous period in words`);
  const previousRow = report.getByTestId("report-previous").first();
  await previousRow.getByText("vorige periode", { exact: true }).waitFor();
  const spendList = admin.getByTestId("spend-list");
  assert(
    (await spendList.locator("caption").innerText()).includes(`Kosten per campagne van ${period}`),
    "the spend list's period in words",
  );
  const tabText = await admin.getByRole("tabpanel").innerText();
  assertEqual(tabText.match(/\b\d{4}-\d{2}-\d{2}\b/g), null, "no ISO date in the tab's text");
  await screenshot(admin, "campagnes-vergelijk-1280.png");
  await admin.getByLabel("Vergelijk met de vorige periode").uncheck();

  // Yesterday only: the report and the spend list both show that day's spend.
  const form = admin.locator("form").filter({ hasText: "Tot en met" });
  await form.getByLabel("Van").fill(yesterday);
  await form.getByLabel("Tot en met").fill(yesterday);
  await form.getByRole("button", { name: "Toon" }).click();
  await metaRow.locator('[data-column="spend"]').filter({ hasText: "€ 120,50" }).waitFor();
  const spendRow = admin.getByTestId("spend-row").filter({ hasText: meta });
  await spendRow.filter({ hasText: "€ 120,50" }).waitFor();
  await spendList
    .locator("caption")
    .filter({ hasText: `Kosten per campagne van ${dutch(yesterday)}` })
    .waitFor();

  // On a phone: a card per campaign with its money, nothing wider than the screen.
  await admin.setViewportSize(PHONE);
  assert(!(await report.isVisible()), "no table on a phone");
  const card = admin.getByTestId("campaign-card").filter({ hasText: meta });
  await card.getByRole("heading", { name: meta }).waitFor();
  await card.getByText("facebook / paid_social").waitFor();
  const cardMoney = card.locator(MONEY.map((key) => `[data-column="${key}"]`).join(", "));
  assertEqual(await cardMoney.count(), MONEY.length, "the card's six figures");
  assertEqual(await outside(card, cardMoney), [], "the card's figures within it at 390 px");
  await card.locator('[data-column="spend"]').getByText("€ 120,50").waitFor();
  // The card is narrower than the name: it may wrap after its hyphens, not inside a word.
  assertEqual(await brokenNames(card.getByRole("heading"), false), [], "the card's name whole");
  const pageWidth = await admin.evaluate(() => document.documentElement.scrollWidth);
  assert(pageWidth <= PHONE.width, `the page is ${pageWidth} px wide at 390 px`);
  await card.scrollIntoViewIfNeeded();
  await screenshot(admin, "campagnes-kaarten-390.png");

  // Linking spend on a phone: the field is wide enough to read, the button whole, its heading said.
  await spendRow.scrollIntoViewIfNeeded();
  const utm = `lente-${tag}`;
  const link = spendRow.getByLabel(`utm_campaign van ${meta}`);
  const button = spendRow.getByRole("button", { name: "Koppelen" });
  const linkBox = (await link.boundingBox())!;
  assert(linkBox.width >= 150, `the utm_campaign field is ${Math.round(linkBox.width)} px wide at 390 px`);
  assertEqual(await outside(admin.locator("body"), button), [], "the button within the screen");
  assert(
    await button.evaluate((element) => element.scrollWidth <= element.clientWidth),
    "Koppelen whole on its button",
  );
  const heading = await spendRow
    .locator("td")
    .last()
    .evaluate((cell) => getComputedStyle(cell, "::before").content);
  assertEqual(heading, '"Telt voor utm_campaign"', "the field's heading, whole, at 390 px");
  await link.fill(utm);
  await button.click();
  await expectNotice(admin, "Koppeling Opgeslagen");
  await dismissNotice(admin);
  await screenshot(admin, "kosten-koppelen-390.png");
  // The report now counts the spend for the linked utm_campaign.
  await admin
    .getByTestId("campaign-card")
    .filter({ hasText: utm })
    .locator('[data-column="spend"]')
    .getByText("€ 120,50")
    .waitFor({ timeout: 30_000 });

  // Analytics at 1280 px: the Bronnen table with the 22-character source fits its card, whole.
  await admin.setViewportSize(DESKTOP);
  await openTab(admin, "Analytics");
  const sources = admin.getByTestId("breakdown-sources");
  const sourceRow = sources.getByRole("row").filter({ hasText: longSource });
  await sourceRow.waitFor({ timeout: 30_000 });
  await admin.getByTestId("breakdown-campaigns").getByText(`december-${tag}`).waitFor();
  const region = admin.getByRole("region", { name: "Bronnen" });
  for (const name of ["Bronnen", "Campagnes"]) {
    const [sw, cw] = await admin
      .getByRole("region", { name, exact: true })
      .evaluate((e) => [e.scrollWidth, e.clientWidth]);
    assert(sw <= cw + 1, `the ${name} table scrolls sideways at 1280 px: ${sw} > ${cw}`);
  }
  // The campaigns' "bron / medium / campagne" may wrap at its spaces and hyphens, never in a word.
  const campaignNames = admin
    .getByTestId("breakdown-campaigns")
    .getByRole("row")
    .filter({ hasText: tag })
    .locator("td:first-child span");
  assertEqual(await campaignNames.count(), 3, "the three campaigns in the breakdown");
  assertEqual(await brokenNames(campaignNames, false), [], "campaign names broken at 1280 px");
  assertEqual(
    await outside(region, sources.locator("thead th").last()),
    [],
    "the Conversie heading within the card",
  );
  assertEqual(await brokenNames(sourceRow.locator("td").first()), [], "the long source whole");
  await region.scrollIntoViewIfNeeded();
  await screenshot(admin, "analytics-bronnen-1280.png");
});
