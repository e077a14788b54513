// The Analytics tab and a lead's Herkomst as staff and a marketer read them the morning after: a
// TikTok ad's visitor (its landing URL carries ttclid, its new campaign not stored by name yet)
// and a visitor without analytics consent each send a quote request. The lead shows a paid click
// and its own campaign; the breakdowns end with "Herkomst onbekend" so they add up to the
// Conversies; "(overig)" is explained where it shows; no part of a period reads more than the
// whole. Screens at 1280 and 390 px.
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { assert, assertEqual, test, DESKTOP } from "./fixtures";

/** The phone width the audit looked at. */
const PHONE = { width: 390, height: 844 };
import {
  converted,
  counter,
  openTab,
  postLead,
  sendQuoteForm,
  visitBeacon,
  visitorAddress,
} from "./admin/helpers";
import { expectAccessible } from "./axe";

const number = (text: string) => Number(text.replace(/\./g, "").trim());

/** The whole page on a wide screen; on a phone the screen as scrolled (a whole phone page is too tall to read). */
async function screenshot(page: Page, name: string): Promise<void> {
  const fullPage = (page.viewportSize()?.width ?? 0) > PHONE.width;
  await page.screenshot({ path: test.info().outputPath(name), fullPage });
}

test("analytics: a TikTok ad's lead is a paid click with its own campaign, and the tables add up to the Conversies", async ({
  world,
  signedIn,
}) => {
  const tag = randomBytes(3).toString("hex");
  const campaign = `tt-voorjaar-${tag}`;
  const company = `TikTok Lease ${tag} BV`;
  // Today's first-sight allowance of new campaigns from this address is spent by other visitors:
  // the TikTok campaign is new to the breakdowns, so they count it as "(overig)" for now.
  // (The visitor's own address: the other tests of this stack keep their allowance.)
  const address = visitorAddress();
  for (let i = 0; i < 5; i++)
    await visitBeacon(
      world,
      `session-warm${tag}${i}-${Date.now()}`,
      `/?utm_source=x&utm_campaign=ander-${tag}-${i}`,
      address,
    );
  const landing = `/financiele-lease?utm_source=tiktok&utm_medium=paid&utm_campaign=${campaign}&ttclid=E.C.P.${tag}`;
  const { page: site } = await world.open(landing, {
    address,
    before: (context) =>
      context.addCookies([{ name: "cookie_consent", value: "v1.a1.m0", url: world.baseUrl }]),
  });
  await site.getByRole("heading", { level: 1 }).waitFor();
  await site.goto(new URL("/#aanvraag", world.baseUrl).href, { waitUntil: "networkidle" });
  const { id } = await sendQuoteForm(site, { email: `${tag}@tiktok-lease.nl`, companyName: company });
  // And one without analytics consent: counted, with no visit to tell where from.
  const direct = await postLead(world, { email: `direct-${tag}@bedrijf.nl` });
  await converted(world, [id, direct]);

  const admin = signedIn.page;
  await openTab(admin, "Lease Aanvragen");
  await admin.getByRole("button", { name: "Vernieuwen" }).click();
  await admin.getByTestId("lease-item").filter({ hasText: company }).first().click();
  const herkomst = admin.getByTestId("lead-attribution");
  await herkomst.getByText("Betaald sociaal").waitFor({ timeout: 45_000 });
  const text = await herkomst.innerText();
  for (const expected of [
    "Betaald sociaal",
    `tiktok / paid / ${campaign}`,
    "Betaalde klik\nJa",
    "/financiele-lease",
  ])
    assert(text.includes(expected), `Herkomst shows "${expected}", got:\n${text}`);
  assert(!text.includes("(overig)"), "the lead keeps its own campaign, not (overig)");
  for (const [width, size] of [
    ["1280", DESKTOP],
    ["390", PHONE],
  ] as const) {
    await admin.setViewportSize(size);
    await herkomst.scrollIntoViewIfNeeded();
    await screenshot(admin, `herkomst-tiktok-${width}.png`);
  }
  await admin.setViewportSize(DESKTOP);

  await openTab(admin, "Analytics");
  await admin.getByRole("group", { name: "Periode" }).getByRole("button", { name: "Vandaag" }).click();
  const conversions = admin.getByTestId("analytics-conversions");
  await conversions.filter({ hasText: "met herkomst onbekend" }).waitFor();
  const header = await conversions.innerText();
  const quotes = number(/(\d[\d.]*) offerteaanvra/.exec(header)![1]!);
  const unknown = number(/waarvan (\d[\d.]*) met herkomst onbekend/.exec(header)![1]!);
  assert(unknown >= 1, `the header says how many have no known visit: ${header}`);
  // Kanalen adds up: its rows' Aanvragen and the "Herkomst onbekend" row make the header's.
  const channels = admin.getByTestId("breakdown-channels");
  const unknownRow = channels.getByTestId("breakdown-unattributed");
  const unknownCells = (await unknownRow.locator("td").allInnerTexts()).map((c) => c.trim());
  assertEqual(unknownCells[0], "Herkomst onbekend", "the row's name");
  const perChannel = await channels
    .locator("tbody tr:not([data-testid=breakdown-unattributed]) td:nth-child(4)")
    .allInnerTexts();
  assertEqual(
    perChannel.reduce((n, c) => n + number(c), 0) + number(unknownCells[3]!),
    quotes,
    "Kanalen's Aanvragen with Herkomst onbekend are the Conversies' offerteaanvragen",
  );
  await admin.getByTestId("unattributed-legend").first().waitFor();
  // The new campaign counts as "(overig)" for now, and the tab says what that means.
  const campaigns = admin.getByTestId("breakdown-campaigns");
  await campaigns.getByText("tiktok / paid / (overig)").waitFor();
  const legend = admin.getByTestId("other-value-legend").first();
  assert((await legend.innerText()).includes("niet bij naam"), "the legend explains (overig) in words");

  // Item 6 as staff check it: Vandaag is never above Deze week, a country never above the period.
  const today = number(await counter(admin, "Vandaag"));
  const week = number(await counter(admin, "Deze week"));
  assert(today <= week, `Vandaag ${today} is not above Deze week ${week}`);
  const periods = admin.getByRole("group", { name: "Periode" });
  await periods.getByRole("button", { name: "7 dagen" }).click();
  await periods.getByRole("button", { name: "7 dagen", pressed: true }).waitFor();
  // The seven days' figures, not today's still on screen: the period line names a range.
  await admin.getByTestId("analytics-period").filter({ hasText: " - " }).waitFor();
  await admin.getByTestId("analytics-totals").waitFor();
  const visitors = number(
    /Bezoekers \((\d[\d.]*)\)/.exec(await admin.getByTestId("analytics-totals").innerText())![1]!,
  );
  for (const cell of await admin
    .getByTestId("breakdown-countries")
    .locator("tbody td:nth-child(2)")
    .allInnerTexts())
    assert(
      cell.trim() === "–" || number(cell) <= visitors,
      `a country's ${cell} is within the ${visitors} visitors`,
    );
  await periods.getByRole("button", { name: "Vandaag" }).click();
  await conversions.filter({ hasText: "met herkomst onbekend" }).waitFor();
  for (const [width, size] of [
    ["1280", DESKTOP],
    ["390", PHONE],
  ] as const) {
    await admin.setViewportSize(size);
    await channels.scrollIntoViewIfNeeded();
    await screenshot(admin, `analytics-herkomst-onbekend-${width}.png`);
  }
  await expectAccessible(admin, "Analytics with Herkomst onbekend and (overig)");

  // The campaign report counts the lead under "(overig)" until its campaign is stored by name, and
  // says what that means.
  await admin.setViewportSize(DESKTOP);
  await openTab(admin, "Campagnes");
  const report = admin.getByTestId("campaign-report");
  await report
    .getByRole("row")
    .filter({ hasText: "tiktok" })
    .filter({ hasText: "(overig)" })
    .first()
    .waitFor();
  assert(
    (await admin.getByTestId("other-value-legend").innerText()).includes("niet bij naam"),
    "the Campagnes tab explains (overig)",
  );
  for (const [width, size] of [
    ["1280", DESKTOP],
    ["390", PHONE],
  ] as const) {
    await admin.setViewportSize(size);
    await admin.getByTestId("other-value-legend").scrollIntoViewIfNeeded();
    await screenshot(admin, `campagnes-overig-${width}.png`);
  }
});
