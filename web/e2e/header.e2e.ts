import { assert, assertEqual, waitFor, MOBILE, test } from "./fixtures";
import type { Page } from "@playwright/test";

async function inView(page: Page, id: string): Promise<boolean> {
  return page.evaluate((target) => {
    const box = document.getElementById(target)?.getBoundingClientRect();
    return box !== undefined && box.top >= -5 && box.top < window.innerHeight / 2;
  }, id);
}

test("header section links smooth-scroll on the home page", async ({ site: t }) => {
  const { page } = await t.open("/");
  const nav = page.getByRole("navigation", { name: "Hoofdmenu" });
  for (const [label, id] of [
    ["Calculator", "calculator"],
    ["Contact", "contact"],
    ["Offerte Aanvragen", "aanvraag"],
    ["Diensten", "diensten"],
  ] as const) {
    await nav.getByRole("link", { name: label, exact: true }).click();
    await waitFor(() => inView(page, id), 5000, `#${id} scrolled into view after "${label}"`);
    assertEqual(new URL(page.url()).pathname, "/", "stays on the home page");
  }
});

test("from another page a section link goes to / and then scrolls to the section", async ({ site: t }) => {
  const { page } = await t.open("/fleet-management");
  await page.getByRole("navigation", { name: "Hoofdmenu" }).getByRole("link", { name: "Calculator" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await waitFor(() => inView(page, "calculator"), 5000, "#calculator in view");
});

test("Over Ons opens /over-ons at the top", async ({ site: t }) => {
  const { page } = await t.open("/");
  await page.evaluate(() => window.scrollTo(0, 2000));
  await page.getByRole("navigation", { name: "Hoofdmenu" }).getByRole("link", { name: "Over Ons" }).click();
  await page.waitForURL("**/over-ons");
  await waitFor(async () => (await page.locator("h1").innerText()) === "Over Ons", 5000, "the Over Ons page");
  await waitFor(async () => (await page.evaluate(() => window.scrollY)) === 0, 5000, "top of /over-ons");
});

test("the Over Ons contact button goes to / and scrolls to the contact section", async ({ site: t }) => {
  const { page } = await t.open("/over-ons");
  await page.getByRole("link", { name: "Neem Contact Op" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await waitFor(() => inView(page, "contact"), 5000, "#contact in view");
});

test("the mobile menu opens with the toggle and closes after a choice", async ({ site: t }) => {
  const { page } = await t.open("/", { viewport: MOBILE });
  assert(
    !(await page.getByRole("navigation", { name: "Hoofdmenu" }).isVisible()),
    "desktop menu hidden on mobile",
  );
  const toggle = page.getByRole("button", { name: "Menu openen" });
  // The label, icon and aria-expanded follow the menu once React runs the header.
  await page.locator('button[aria-controls="mobiel-menu"][data-hydrated="true"]').waitFor();
  await toggle.click();
  const menu = page.getByRole("navigation", { name: "Mobiel menu" });
  assert(await menu.isVisible(), "menu open");
  assertEqual(
    await page.getByRole("button", { name: "Menu sluiten" }).getAttribute("aria-expanded"),
    "true",
    "expanded",
  );
  await menu.getByRole("link", { name: "Calculator" }).click();
  await waitFor(async () => !(await menu.isVisible()), 5000, "menu closed after a choice");
  await waitFor(() => inView(page, "calculator"), 5000, "#calculator in view");
  await page.getByRole("button", { name: "Menu openen" }).click();
  await page.getByRole("button", { name: "Menu sluiten" }).click();
  assert(!(await menu.isVisible()), "toggle closes the menu");
  await page.getByRole("button", { name: "Menu openen" }).click();
  await page.keyboard.press("Escape");
  await waitFor(async () => !(await menu.isVisible()), 5000, "Escape closes the menu");
  const focused = await page.evaluate(() => document.activeElement?.getAttribute("aria-controls"));
  assertEqual(focused, "mobiel-menu", "focus back on the menu button");
});

test("the mobile menu opens before the page's script has run, and its links work", async ({ site: t }) => {
  // What a visitor on a slow phone gets in the seconds before React runs: the pre-rendered page.
  const { page } = await t.open("/", { viewport: MOBILE, javaScriptEnabled: false });
  const menu = page.getByRole("navigation", { name: "Mobiel menu" });
  assert(!(await menu.isVisible()), "menu closed at first");
  await page.getByRole("button", { name: "Menu openen" }).click();
  await menu.waitFor();
  await page.keyboard.press("Escape");
  await menu.waitFor({ state: "hidden" });
  await page.getByRole("button", { name: "Menu openen" }).click();
  await menu.getByRole("link", { name: "Calculator" }).click();
  await page.waitForURL((url) => url.hash === "#calculator");
});

test("the title shows the company name, and on small screens the abbreviation or initials", async ({
  site: t,
}) => {
  const desktop = await t.open("/", { company: { companyName: "Van Dijk Auto Lease Groep Noord" } });
  await waitFor(
    async () =>
      (await desktop.page.getByTestId("site-title-full").innerText()) === "Van Dijk Auto Lease Groep Noord",
    5000,
    "company name in the header",
  );
  const initials = await t.open("/", {
    viewport: MOBILE,
    company: { companyName: "Van Dijk Auto Lease Groep Noord" },
  });
  await waitFor(
    async () => (await initials.page.getByTestId("site-title-short").innerText()) === "VDAL",
    5000,
    "initials",
  );
  const abbreviation = await t.open("/", { viewport: MOBILE, company: { mobileAbbreviation: "VDL" } });
  await waitFor(
    async () => (await abbreviation.page.getByTestId("site-title-short").innerText()) === "VDL",
    5000,
    "abbreviation",
  );
});

test("contact section and footer show the company settings, with fallbacks when empty", async ({
  site: t,
}) => {
  const empty = await t.open("/");
  const footer = empty.page.locator("footer");
  assert((await footer.innerText()).includes("Telefoonnummer op aanvraag"), "phone fallback");
  assert((await footer.innerText()).includes("© 2024"), "footer year 2024");
  assertEqual(
    await footer.getByRole("link", { name: /binnenkort beschikbaar/ }).count(),
    3,
    "three social placeholders",
  );
  const { page } = await t.open("/", {
    company: {
      companyName: "Lease Partners BV",
      phoneNumber: "020 123 45 67",
      emailAddress: "info@leasepartners.nl",
      address: "Keizersgracht 100",
      postalCode: "1015 AA",
      city: "Amsterdam",
      kvkNumber: "12345678",
      btwNumber: "NL123456789B01",
    },
  });
  const contact = page.locator("#contact");
  await waitFor(
    async () => (await contact.innerText()).includes("020 123 45 67"),
    5000,
    "phone in the contact section",
  );
  const text = await contact.innerText();
  for (const part of [
    "info@leasepartners.nl",
    "Keizersgracht 100",
    "1015 AA Amsterdam",
    "12345678",
    "NL123456789B01",
  ]) {
    assert(text.includes(part), `contact section lacks ${part}`);
  }
  assertEqual(
    await contact.getByRole("link", { name: "020 123 45 67" }).getAttribute("href"),
    "tel:0201234567",
    "tel link",
  );
  const terms = await t.open("/voorwaarden", {
    company: { companyName: "Lease Partners BV", city: "Utrecht" },
  });
  await waitFor(
    async () => (await terms.page.getByTestId("bedrijfsgegevens").innerText()).includes("Lease Partners BV"),
    5000,
    "company name on the terms",
  );
  const block = await terms.page.getByTestId("bedrijfsgegevens").innerText();
  assert(
    block.includes("Utrecht") && !block.includes("KvK-nummer"),
    "terms show only the configured details",
  );
  // A name that ends in a full stop gets no second one in the copyright line.
  const bv = await t.open("/", { company: { companyName: "Autolease Nederland B.V." } });
  await waitFor(
    async () =>
      (await bv.page.locator("footer").innerText()).includes(
        "© 2024 Autolease Nederland B.V. Alle rechten voorbehouden.",
      ),
    5000,
    "one full stop after B.V.",
  );
});
