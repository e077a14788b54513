// The site with the keyboard only (Tab, Shift+Tab, Enter): every jump to a section moves focus to
// the section's heading, so the next Tab goes on into that section (the quote form's first field),
// at 1280 px and on a 390 px phone, also when the jump first opens the home page.
import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { assert, assertEqual, waitFor, DESKTOP, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };

/** What has focus: its id, tag and text, and whether it lies in the page header. */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    return {
      id: element?.id ?? "",
      tag: element?.tagName ?? "",
      text: (element?.getAttribute("aria-label") ?? element?.textContent ?? "").trim(),
      inHeader: Boolean(element?.closest("header")),
    };
  });
}

/** Presses Tab (or Shift+Tab) until the control named `name` has focus, as a person would. */
async function tabTo(page: Page, name: string, key: "Tab" | "Shift+Tab" = "Tab"): Promise<void> {
  for (let presses = 0; presses < 80; presses++) {
    await page.keyboard.press(key);
    if ((await focused(page)).text === name) return;
  }
  throw new Error(`"${name}" not reached with ${key}`);
}

/** Enter on the focused link: focus lands on the heading `headingId`, shown below the sticky header. */
async function enterLandsOn(page: Page, headingId: string, what: string): Promise<void> {
  await page.keyboard.press("Enter");
  await waitFor(async () => (await focused(page)).id === headingId, 5000, `${what}: focus on #${headingId}`);
  await waitFor(
    () =>
      page.evaluate((id) => {
        const box = document.getElementById(id)!.getBoundingClientRect();
        const header = document.querySelector("header")!.getBoundingClientRect();
        return box.top >= header.bottom - 1 && box.bottom <= window.innerHeight;
      }, headingId),
    5000,
    `${what}: #${headingId} scrolled into view`,
  );
}

/** A screenshot once the smooth scroll has come to rest (to look at where the jump landed). */
async function screenshot(page: Page, name: string): Promise<void> {
  await waitFor(
    () =>
      page.evaluate(async () => {
        const before = window.scrollY;
        await new Promise((resolve) => setTimeout(resolve, 150));
        return window.scrollY === before;
      }),
    5000,
    "the scroll at rest",
  );
  await page.screenshot({ path: test.info().outputPath(name) });
}

/** The next Tab goes into the form: its first field, not back to the top of the page. */
async function nextTabIsFirstField(page: Page, what: string): Promise<void> {
  await page.keyboard.press("Tab");
  assertEqual((await focused(page)).id, "aanvraag-auto", `${what}: the next Tab reaches "Link naar de auto"`);
}

/** Opens `path` afresh and has the keyboard start at the top of the page. */
async function fresh(page: Page, path: string): Promise<void> {
  await page.goto(new URL(path, page.url()).href);
  await page.locator("main").waitFor();
}

test("keyboard at 1280 px: header items, hero buttons and the section buttons focus their section", async ({
  site: t,
}) => {
  const { page } = await t.open("/", { viewport: DESKTOP });

  await tabTo(page, "Offerte Aanvragen");
  assert((await focused(page)).inHeader, "the header's Offerte Aanvragen");
  await enterLandsOn(page, "aanvraag-titel", "header Offerte Aanvragen");
  await screenshot(page, "aanvraag-1280.png");
  await nextTabIsFirstField(page, "header Offerte Aanvragen");

  // From the form back up to the header, then on through the page's own buttons.
  await tabTo(page, "Diensten", "Shift+Tab");
  await enterLandsOn(page, "diensten-titel", "header Diensten");
  await tabTo(page, "Bereken Uw Lease");
  await enterLandsOn(page, "calculator-titel", "Bereken Uw Lease");
  await page.keyboard.press("Tab");
  assertEqual((await focused(page)).id, "calc-prijs", "the next Tab reaches the catalogue price");
  await tabTo(page, "Vrijblijvende Offerte Aanvragen");
  await enterLandsOn(page, "aanvraag-titel", "the calculator's button to the form");
  await nextTabIsFirstField(page, "the calculator's button");

  await fresh(page, "/");
  await tabTo(page, "Direct Lease Aanvragen");
  await enterLandsOn(page, "aanvraag-titel", "hero Direct Lease Aanvragen");
  await nextTabIsFirstField(page, "hero Direct Lease Aanvragen");

  await fresh(page, "/");
  await tabTo(page, "Bereken Maandlasten");
  await enterLandsOn(page, "calculator-titel", "hero Bereken Maandlasten");
  await tabTo(page, "Contact", "Shift+Tab");
  await enterLandsOn(page, "contact-titel", "header Contact");
  await tabTo(page, "Calculator", "Shift+Tab");
  await enterLandsOn(page, "calculator-titel", "header Calculator");
  await expectAccessible(page, "/ with focus on a section heading");
});

test("keyboard on a 390 px phone: the menu's choices and the hero focus their section, not the menu button", async ({
  site: t,
}) => {
  const { page } = await t.open("/", { viewport: PHONE });
  await page.locator('button[aria-controls="mobiel-menu"][data-hydrated="true"]').waitFor();

  await tabTo(page, "Menu openen");
  await page.keyboard.press("Enter");
  await page.getByRole("navigation", { name: "Mobiel menu" }).waitFor();
  await tabTo(page, "Offerte Aanvragen");
  await enterLandsOn(page, "aanvraag-titel", "menu Offerte Aanvragen");
  assert(!(await page.getByRole("navigation", { name: "Mobiel menu" }).isVisible()), "the menu closed");
  await screenshot(page, "aanvraag-390.png");
  await nextTabIsFirstField(page, "menu Offerte Aanvragen");

  await tabTo(page, "Menu openen", "Shift+Tab");
  await page.keyboard.press("Enter");
  await tabTo(page, "Calculator");
  await enterLandsOn(page, "calculator-titel", "menu Calculator");

  await fresh(page, "/");
  await tabTo(page, "Direct Lease Aanvragen");
  await enterLandsOn(page, "aanvraag-titel", "hero Direct Lease Aanvragen at 390 px");
  await nextTabIsFirstField(page, "hero at 390 px");
  await expectAccessible(page, "/ at 390 px with focus on the form's heading");
});

test("keyboard from another page: the jump opens / and focuses the section; page buttons and Over Ons too", async ({
  site: t,
}) => {
  const { page } = await t.open("/fleet-management", { viewport: DESKTOP });
  await tabTo(page, "Offerte Aanvragen");
  await enterLandsOn(page, "aanvraag-titel", "Offerte Aanvragen from /fleet-management");
  assertEqual(new URL(page.url()).pathname, "/", "on the home page");
  await nextTabIsFirstField(page, "after navigating home");

  // The content pages' own buttons to an anchor of the same page.
  await fresh(page, "/zakelijke-lease");
  await tabTo(page, "Bekijk de Voordelen");
  await enterLandsOn(page, "voordelen-titel", "Bekijk de Voordelen");

  // The closing block's buttons, to the home page's sections.
  await tabTo(page, "Bereken Uw Lease");
  await enterLandsOn(page, "calculator-titel", "Bereken Uw Lease from /zakelijke-lease");

  // Over Ons opens its page with focus on the title; its contact button goes home to Contact.
  await tabTo(page, "Over Ons", "Shift+Tab");
  await page.keyboard.press("Enter");
  await page.waitForURL("**/over-ons");
  await waitFor(
    async () => {
      const now = await focused(page);
      return now.tag === "H1" && now.text === "Over Ons";
    },
    5000,
    "focus on the page's title",
  );
  await tabTo(page, "Neem Contact Op");
  await enterLandsOn(page, "contact-titel", "Neem Contact Op from /over-ons");
  assertEqual(new URL(page.url()).pathname, "/", "on the home page");

  const phone = await t.open("/over-ons", { viewport: PHONE });
  await phone.page.locator('button[aria-controls="mobiel-menu"][data-hydrated="true"]').waitFor();
  await tabTo(phone.page, "Menu openen");
  await phone.page.keyboard.press("Enter");
  await tabTo(phone.page, "Offerte Aanvragen");
  await enterLandsOn(phone.page, "aanvraag-titel", "menu Offerte Aanvragen from /over-ons at 390 px");
  await nextTabIsFirstField(phone.page, "after navigating home at 390 px");
});
