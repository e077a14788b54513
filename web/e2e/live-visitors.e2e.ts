// The live list of active visitors on the Analytics tab, against the real stack: a visit in a
// second browser appears at once; hundreds active are paged; a consenting visitor shows an address
// block and browser, one without consent neither; readable at 375 px without scrolling sideways.
import { randomBytes } from "node:crypto";
import { assert, assertEqual, waitFor, test, DESKTOP, MOBILE } from "./fixtures";
import { counter, dismissNotice, openTab, signedInPage, visitBeacon } from "./admin/helpers";

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
  // The stack is shared with other files' tests: their visitors may come or go meanwhile, so the
  // second page is held against the total it shows itself (a CI run saw 61 where 60 were read).
  await waitFor(
    async () => {
      const second = /^26–50 van ([\d.]+) getoond$/.exec(await range.innerText());
      const now = Number(second?.[1]?.replace(".", "") ?? 0);
      return now >= 50 && (await page.getByText(`Pagina 2 van ${Math.ceil(now / 25)}`).count()) === 1;
    },
    20_000,
    "the second page: 26–50 of all, page 2 of all pages",
  );
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

test("panel: at 375 px the active visitors are readable without scrolling sideways", async ({ world }) => {
  const page = await signedInPage(world);
  await page.setViewportSize(MOBILE);
  try {
    await openTab(page, "Analytics");
    await world.open("/financiele-lease");
    const table = page.getByTestId("active-visitors");
    await table.waitFor({ timeout: 15_000 });
    const widths = await table.evaluate((el) => ({
      table: el.scrollWidth,
      room: el.parentElement!.clientWidth,
    }));
    assert(widths.table <= widths.room, `the list is ${widths.table - widths.room}px wider than the screen`);
    const cell = table.locator("td").nth(1);
    assertEqual(
      await cell.evaluate((el) => getComputedStyle(el, "::before").content),
      '"User agent"',
      "each value names its column",
    );
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `the page is ${overflow}px too wide`);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});
