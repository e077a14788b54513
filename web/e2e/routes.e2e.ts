import { assert, assertEqual, waitFor, pageErrors, test } from "./fixtures";

const HEADINGS: Record<string, string> = {
  "/": "Zakelijk een auto leasen? Ook met een BKR-registratie.",
  "/zakelijke-lease": "Zakelijke Lease",
  "/financiele-lease": "Financiële Lease",
  "/operationele-lease": "Operationele Lease",
  "/fleet-management": "Fleet Management",
  "/over-ons": "Over Ons",
  "/voorwaarden": "Algemene Voorwaarden",
  "/privacy-beleid": "Privacy Beleid",
  "/cookie-beleid": "Cookie Beleid",
};

const SECTION_HEADINGS: Record<string, string[]> = {
  "/": [
    "Onze Diensten",
    "Lease Calculator",
    "Betrouwbaar en Ervaren",
    "Vrijblijvend Lease Aanvragen",
    "Contact",
  ],
  "/financiele-lease": [
    "De fiscale voordelen op een rij",
    "Financiële lease met een BKR-registratie",
    "Financiële of operationele lease?",
  ],
  "/operationele-lease": [
    "All-inclusive: dit zit erin",
    "Kostenoverzicht",
    "Voor wie is operationele lease geschikt?",
  ],
  "/fleet-management": ["De CO2-rapportageplicht", "Resultaten bij onze klanten", "Voor welke organisaties?"],
  "/over-ons": ["Onze missie", "Onze kernwaarden", "Onze geschiedenis", "Waarom ondernemers voor ons kiezen"],
  "/voorwaarden": ["Artikel 1 - Definities", "Artikel 11 - Slotbepalingen"],
  "/privacy-beleid": ["1. Wie zijn wij", "4. Bewaartermijnen", "10. Contact en klachten"],
  "/cookie-beleid": ["Noodzakelijke cookies", "Analytische cookies", "Marketingcookies"],
};

// One test per route: each stands alone (and a slow page cannot eat the others' time).
for (const [path, heading] of Object.entries(HEADINGS)) {
  test(`${path} renders its headings after hydration, without errors`, async ({ site: t }) => {
    const { page } = await t.open(path);
    assertEqual(await page.locator("h1").first().innerText(), heading, `h1 of ${path}`);
    const h2s = await page.locator("h2").allInnerTexts();
    for (const expected of SECTION_HEADINGS[path] ?? []) {
      assert(h2s.includes(expected), `${path} lacks the heading "${expected}" (has ${h2s.join(" | ")})`);
    }
    await page.waitForLoadState("networkidle");
    assertEqual(pageErrors(page), [], `errors on ${path}`);
  });
}

test("pre-rendered HTML carries content, title, description, canonical and Open Graph, and no inline script", async ({
  site: t,
}) => {
  for (const [path, heading] of Object.entries(HEADINGS)) {
    const response = await fetch(new URL(path, t.baseUrl));
    assertEqual(response.status, 200, `status of ${path}`);
    const html = await response.text();
    assert(html.includes(heading.replace("'", "&#x27;")), `${path}: heading not in the HTML`);
    // Until the browser has the company's settings, the default name, as in the header.
    assert(
      /<title>[^<]*Zakelijk Lease Centrum[^<]*<\/title>/.test(html),
      `${path}: no title with the company`,
    );
    assert(html.includes('<meta name="description"'), `${path}: no description`);
    assert(/<link rel="canonical" href="[^"]*"/.test(html), `${path}: no canonical`);
    assert(
      html.includes('property="og:title"') && html.includes('property="og:url"'),
      `${path}: no Open Graph`,
    );
    assert(!/<script(?![^>]*\bsrc=)[^>]*>/i.test(html), `${path}: inline script`);
    // The stylesheet is inlined (no render-blocking request before the first paint).
    assert(/<style>[^]{1000,}?<\/style>/.test(html), `${path}: no inline stylesheet`);
    assert(!html.includes('rel="stylesheet"'), `${path}: still links its stylesheet`);
  }
  const legal = await (await fetch(new URL("/voorwaarden", t.baseUrl))).text();
  assert(legal.includes("Laatst bijgewerkt: 20 augustus 2025"), "terms lack the last-updated line");
  const home = await (await fetch(new URL("/", t.baseUrl))).text();
  const submits = home.match(/<button type="submit"[^>]*>/g) ?? [];
  assertEqual(submits.length, 2, "two forms on the home page");
  assert(
    submits.every((button) => /\sdisabled=""/.test(button)),
    "forms cannot submit before hydration (no native GET with personal data in the URL)",
  );
});

test("pages are readable without JavaScript", async ({ site: t }) => {
  const { page } = await t.open("/financiele-lease", { javaScriptEnabled: false });
  assertEqual(await page.locator("h1").innerText(), "Financiële Lease", "h1 without JS");
  assert(await page.getByRole("table").first().isVisible(), "comparison table visible without JS");
  assertEqual(
    await page.locator("header").evaluate((el) => getComputedStyle(el).position),
    "sticky",
    "styled without JS (the inline stylesheet applies)",
  );
});

test('an unknown path answers 404 and shows "404 Page Not Found"', async ({ site: t }) => {
  const response = await fetch(new URL("/bestaat-niet", t.baseUrl));
  assertEqual(response.status, 404, "status");
  const { page } = await t.open("/bestaat-niet/dieper");
  assertEqual(await page.locator("h1").innerText(), "404 Page Not Found", "heading");
  await page.waitForLoadState("networkidle");
  assertEqual(pageErrors(page), [], "errors on the 404 page");
});

test("the home page never downloads admin code; /admin renders from the app shell", async ({ site: t }) => {
  const { page } = await t.open("/");
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  await page.reload();
  await page.waitForLoadState("networkidle");
  assert(scripts.length > 0, "no scripts seen");
  assert(!scripts.some((url) => /Admin|EmailCompose/.test(url)), `admin chunk loaded: ${scripts.join(", ")}`);
  const admin = await t.open("/admin");
  await waitFor(() => admin.page.locator("h1").innerText(), 5000, "admin placeholder heading");
  assert((await admin.page.locator("h1").innerText()) !== HEADINGS["/"], "admin shows the home page");
});

test("content pages open at the top", async ({ site: t }) => {
  const { page } = await t.open("/");
  await page.locator("footer").scrollIntoViewIfNeeded();
  await page.getByRole("link", { name: "Algemene Voorwaarden" }).click();
  await page.waitForURL("**/voorwaarden");
  await waitFor(async () => (await page.evaluate(() => window.scrollY)) === 0, 5000, "scroll to top");
});
