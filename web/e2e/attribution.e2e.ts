// Where a lead came from, tried as a new visitor and the broker would (issue 16's example): a
// visit lands from a paid Google ad with analytics consent, sends a quote request, and the admin
// sees the lead's "Herkomst", finds it by channel and campaign in the list, and sees the
// conversion of campaign "najaar" in today's Analytics. One story on a stack of its own: the steps
// count the story's leads from an empty database, so they run in order (`npm run e2e -- attribution`).
import { assert, assertEqual, waitFor, test, ADMIN_USERNAME } from "./fixtures";
import { expectNotice, openTab, signIn } from "./admin/helpers";
import { expectAccessible } from "./axe";

const LANDING = "/financiele-lease?utm_source=google&utm_medium=cpc&utm_campaign=najaar&gclid=X";
const COMPANY = "Najaar Campagne BV";

test.describe.configure({ mode: "serial" });

test("attribution: a quote from a paid Google visit shows its Herkomst on the lead", async ({ world }) => {
  const { page: site } = await world.open(LANDING, {
    // The visitor accepted analytical cookies: the browser keeps its visitor-session id.
    before: (context) =>
      context.addCookies([{ name: "cookie_consent", value: "v1.a1.m0", url: world.baseUrl }]),
  });
  await site.getByRole("heading", { level: 1 }).waitFor();
  await site.goto(new URL("/#aanvraag", world.baseUrl).href, { waitUntil: "networkidle" });
  await site.locator("#aanvraag-auto").fill("https://www.autoscout24.nl/aanbod/volvo-ex30-najaar");
  await site.locator("#aanvraag-telefoon").fill("0611223344");
  await site.locator("#aanvraag-email").fill("najaar@campagne.nl");
  await site.locator("#aanvraag-bedrijf").fill(COMPANY);
  await site.getByRole("button", { name: "Aanvraag Versturen" }).click();
  await site.getByTestId("aanvraag-succes").waitFor({ timeout: 10_000 });

  const { page } = await world.open("/admin-login");
  await signIn(page, ADMIN_USERNAME, world.password);
  await expectNotice(page, "Succesvol ingelogd");
  await openTab(page, "Lease Aanvragen");
  const item = page.getByTestId("lease-item").filter({ hasText: COMPANY });
  // Tracking answers with the attribution a few seconds after the form (its conversion job waits
  // for the visit's last page views to be written).
  await waitFor(
    async () => {
      await page.waitForTimeout(500);
      await page.getByRole("button", { name: "Vernieuwen" }).click();
      await item.click();
      return (await page.getByTestId("lead-attribution").innerText()).includes("Betaald zoeken");
    },
    20_000,
    "the lead's Herkomst",
  );
  const herkomst = page.getByTestId("lead-attribution");
  await herkomst.getByRole("heading", { name: "Herkomst" }).waitFor();
  const text = await herkomst.innerText();
  for (const expected of ["Betaald zoeken", "google / cpc / najaar", "Ja", "/financiele-lease"])
    assert(text.includes(expected), `Herkomst shows "${expected}", got:\n${text}`);
  assert(!text.includes("gclid") && !text.includes("X\n"), "the paid-click id itself is shown nowhere");
  const pages = await herkomst.getByTestId("lead-attribution-pages").locator("li").allInnerTexts();
  assertEqual(pages, ["/financiele-lease", "/"], "the pages before the form, in order");
  await expectAccessible(page, "a lead's Herkomst");
});

test("attribution: the lead list filters by channel and campaign, and the CSV follows", async ({
  world,
  signedIn,
}) => {
  const page = signedIn.page;
  await openTab(page, "Lease Aanvragen");
  const other = await fetch(`${world.baseUrl}/api/lease-requests`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: world.baseUrl },
    body: JSON.stringify({
      carUrl: "https://www.autoscout24.nl/aanbod/zonder-campagne",
      contactNumber: "0699887766",
      email: "direct@bedrijf.nl",
    }),
  });
  assertEqual(other.status, 201, "a quote without a visit accepted");
  await page.getByRole("button", { name: "Vernieuwen" }).click();
  await page.getByText("Lease Aanvragen (2)").waitFor();

  await page.getByLabel("Kanaal").selectOption({ label: "Betaald zoeken" });
  await page.getByText("Lease Aanvragen (1)").waitFor();
  await page.getByTestId("lease-item").filter({ hasText: COMPANY }).waitFor();
  await page.getByLabel("Kanaal").selectOption({ label: "Organisch zoeken" });
  await page.getByTestId("no-matches").waitFor();
  await page.getByLabel("Kanaal").selectOption({ label: "Alle kanalen" });
  await page.getByText("Lease Aanvragen (2)").waitFor();

  await page.getByLabel("Campagne").fill("najaar");
  await page.getByRole("button", { name: "Zoeken", exact: true }).click();
  await page.getByText("Lease Aanvragen (1)").waitFor();
  const csvHref = await page.getByRole("link", { name: "Exporteer CSV" }).getAttribute("href");
  assert(csvHref?.includes("campaign=najaar"), `the CSV link carries the campaign, got ${csvHref}`);
  const csv = await page.evaluate((href) => fetch(href!).then((r) => r.text()), csvHref);
  assert(csv.includes("Paid Search;google;cpc;najaar"), `the CSV carries the attribution:\n${csv}`);
  assert(!csv.includes("direct@bedrijf.nl"), "the CSV holds only the campaign's lead");
});

test('attribution: today\'s Analytics shows the conversion of campaign "najaar"', async ({ signedIn }) => {
  const page = signedIn.page;
  await openTab(page, "Analytics");
  await page.getByRole("group", { name: "Periode" }).getByRole("button", { name: "Vandaag" }).click();
  // Both quotes are conversions of today; the one without a visit is counted but unattributed.
  await page
    .getByTestId("analytics-conversions")
    .filter({ hasText: "2 offerteaanvragen" })
    .waitFor({ timeout: 15_000 });
  const row = page.getByTestId("breakdown-campaigns").locator("tbody tr").filter({ hasText: "najaar" });
  // Bron / medium / campagne, bezoekers, weergaven, aanvragen, berichten, conversie.
  const cells = (await row.locator("td").allInnerTexts()).map((c) => c.trim());
  assertEqual(cells, ["google / cpc / najaar", "1", "2", "1", "0", "100%"], "the campaign's row");
  const channel = page
    .getByTestId("breakdown-channels")
    .locator("tbody tr")
    .filter({ hasText: "Betaald zoeken" });
  assertEqual((await channel.locator("td").nth(3).innerText()).trim(), "1", "the channel's quote");
  await expectAccessible(page, "Analytics with conversions");
});
