// Moving between the public pages: a link swaps the next page's pre-rendered content in without a
// page load (the site's state stays), and Back and Forward do the same; the islands of a page shown
// again run again (README.md, "two apps").
import type { Page } from "@playwright/test";
import { assert, assertEqual, pageErrors, test, waitFor } from "./fixtures";

/** A mark on the window: it survives only as long as the document does. */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

const h1 = (page: Page) => page.locator("main h1").innerText();

test("links, Back and Forward change the page without loading it; the home page's calculator works again", async ({
  site: t,
}) => {
  const { page } = await t.open("/");
  await page.locator('#calculator form[data-hydrated="true"]').waitFor();
  await markDocument(page);

  await page.locator("footer").getByRole("link", { name: "Over Ons" }).click();
  await page.waitForURL("**/over-ons");
  await waitFor(async () => (await h1(page)) === "Over Ons", 5000, "the Over Ons page");
  assertEqual(
    await page.title(),
    "Over Ons: 15+ jaar ervaring in zakelijke lease | Zakelijk Lease Centrum",
    "its title",
  );

  await page.goBack();
  await waitFor(async () => new URL(page.url()).pathname === "/", 5000, "back on /");
  await waitFor(
    async () => (await h1(page)) === "Zakelijk een auto leasen? Ook met een BKR-registratie.",
    5000,
    "the home page again",
  );
  // The calculator is a new island on the content shown again: it computes what is typed.
  await page.locator('#calculator form[data-hydrated="true"]').waitFor();
  await page.getByLabel("Catalogusprijs van de auto").fill("40000");
  await page.getByLabel("Aanbetaling").fill("10000");
  await waitFor(
    async () => (await page.getByTestId("calc-basis").innerText()) !== "€ 456",
    5000,
    "the result follows the new price",
  );

  await page.goForward();
  await waitFor(async () => (await h1(page)) === "Over Ons", 5000, "Over Ons again");
  await page.getByRole("link", { name: "Neem Contact Op" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await page.locator("#contact form button[type=submit]:not([disabled])").waitFor();

  assert(await sameDocument(page), "a page was loaded: the document's mark is gone");
  assertEqual(pageErrors(page), [], "errors while moving between the pages");
});
