// Moving between the panel's tabs: each has its own title and its place in the URL; a reload keeps
// the tab, Back and Forward move between tabs, and other parameters (the Analytics period) stay.
import { assert, assertEqual, waitFor, test, ADMIN_USERNAME, DESKTOP } from "./fixtures";
import { TABS, openTab, selectedTab, signIn, signedInPage, tabParam } from "./admin/helpers";

test("each tab has its own title and its place in the URL; reload keeps it, Back returns", async ({
  world,
}) => {
  const page = await signedInPage(world);
  await waitFor(
    async () => /^(\(\d+\) )?Analytics \| Beheer$/.test(await page.title()),
    5000,
    "the Analytics title",
  );
  assertEqual(tabParam(page), null, "Analytics, the default, needs no parameter");
  for (const [id, label] of TABS.slice(1)) {
    await openTab(page, label);
    await waitFor(
      async () => (await page.title()).replace(/^\(\d+\) /, "") === `${label} | Beheer`,
      5000,
      `the title of ${label}`,
    );
    assertEqual(tabParam(page), id, `${label} in the URL`);
  }
  await page.reload();
  await page.getByTestId("welkom").waitFor();
  assertEqual(await selectedTab(page), "Logboek", "the reload keeps the tab");
  await page.goBack();
  await waitFor(
    async () => (await selectedTab(page)) === "Gebruikers",
    5000,
    "Back returns to the previous tab",
  );
  assertEqual((await page.title()).replace(/^\(\d+\) /, ""), "Gebruikers | Beheer", "and its title");

  // Other parameters (the Analytics period) stay as the tabs change.
  await page.goto(`${world.baseUrl}/admin?tab=theme&periode=30d`);
  await waitFor(async () => (await selectedTab(page)) === "Theme Instellingen", 5000, "the tab from the URL");
  await openTab(page, "Analytics");
  assertEqual(new URL(page.url()).search, "?periode=30d", "Analytics keeps the period");
  await openTab(page, "Bedrijfsgegevens");
  const params = new URL(page.url()).searchParams;
  assertEqual([params.get("tab"), params.get("periode")], ["bedrijf", "30d"], "both parameters");
});

test("seams: the open tab is in the URL; a reload keeps it, Back and Forward move between tabs", async ({
  world,
}) => {
  const { page } = await world.signedIn();
  assertEqual(tabParam(page), null, "Analytics, the default, has no parameter");
  await openTab(page, "Bedrijfsgegevens");
  await waitFor(() => tabParam(page) === "bedrijf", 5000, "Bedrijfsgegevens in the URL");
  await openTab(page, "Social Media Pixels");
  await waitFor(() => tabParam(page) === "pixels", 5000, "Pixels in the URL");

  await page.reload();
  await page.getByTestId("welkom").waitFor();
  assertEqual(await selectedTab(page), "Social Media Pixels", "the reload keeps the tab");
  await page.getByTestId("pixel-facebookPixelId").waitFor();

  await page.goBack();
  await waitFor(async () => (await selectedTab(page)) === "Bedrijfsgegevens", 5000, "Back: the previous tab");
  assertEqual(tabParam(page), "bedrijf", "Back: its URL");
  await page.getByLabel("Bedrijfsnaam").waitFor();
  await page.goBack();
  await waitFor(async () => (await selectedTab(page)) === "Analytics", 5000, "Back again: Analytics");
  assertEqual(new URL(page.url()).pathname, "/admin", "still in the panel");
  await page.goForward();
  await waitFor(
    async () => (await selectedTab(page)) === "Bedrijfsgegevens",
    5000,
    "Forward: Bedrijfsgegevens",
  );
});

test("the tab's title stays when the company settings arrive after it", async ({ world }) => {
  // A slow answer of the public company settings (a CI run's busy machine) came after the tab had
  // named itself, and the page's generic "Dashboard | Beheer" replaced "Gebruikers | Beheer".
  const context = await world.newContext({
    viewport: DESKTOP,
    locale: "nl-NL",
    timezoneId: "Europe/Amsterdam",
  });
  const page = await context.newPage();
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  await page.route("**/api/company-settings", async (route) => {
    asked++;
    await held;
    await route.continue();
  });
  await page.goto(`${world.baseUrl}/admin-login`);
  await signIn(page, ADMIN_USERNAME, world.password);
  await page.getByTestId("welkom").waitFor();
  await openTab(page, "Gebruikers");
  const title = async () => (await page.title()).replace(/^\(\d+\) /, "");
  await waitFor(async () => (await title()) === "Gebruikers | Beheer", 5000, "the tab's title");
  assert(asked > 0, "the company settings were asked for, and held");
  const answered = page.waitForResponse("**/api/company-settings");
  release();
  await answered;
  // The answer rendered (two frames), then the title is read again.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  assertEqual(await title(), "Gebruikers | Beheer", "the title after the company settings came");
});
