// The Analytics tab over imported history (tracking:import), against the real stack: a chosen period
// kept in the URL, its chart's labels whole at 1280 and 390 px; a click on a campaign, a landing page
// or a channel filters the whole tab and the URL, and Back and Forward follow.
import type { Page } from "@playwright/test";
import { assert, assertEqual, test, DESKTOP, MOBILE, type AdminWorld } from "./fixtures";
import { importHistoryLines, openTab } from "./admin/helpers";

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
  await importHistoryLines(world, lines);
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
