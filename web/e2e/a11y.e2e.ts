// Accessibility (WCAG 2.2 AA): axe on every page of the public site, the cookie banner taking
// focus, and readable theme colours; axe on the panel's login page, every admin tab and the compose
// window.
import { contrastRatio } from "../src/lib/contrast";
import { PUBLIC_PATHS } from "../src/lib/url";
import { expectAccessible } from "./axe";
import { assert, assertEqual, waitFor, MOBILE, test } from "./fixtures";
import { TABS, openTab, postLeadFrom, signedInPage } from "./admin/helpers";

const PAGES = [...PUBLIC_PATHS, "/deze-pagina-bestaat-niet"];

// One test per page: axe takes several seconds a page, and each page stands alone.
for (const path of PAGES) {
  test(`axe: no serious or critical violation on ${path}, with the cookie banner open`, async ({
    site: t,
  }) => {
    const { page } = await t.open(path, { consent: "none" });
    await page.getByRole("dialog", { name: "Wij gebruiken cookies" }).waitFor();
    await expectAccessible(page, path);
  });
}

test("axe: the public pages pass at 375 px too", async ({ site: t }) => {
  for (const path of ["/financiele-lease", "/operationele-lease"]) {
    const { page, context } = await t.open(path, { viewport: MOBILE });
    await page.waitForLoadState("networkidle");
    await expectAccessible(page, `${path} at 375 px`);
    await context.close();
  }
});

/** "rgb(199, 75, 10)" as "#C74B0A". */
const hex = (css: string) =>
  `#${(css.match(/\d+/g) ?? [])
    .slice(0, 3)
    .map((c) => Number(c).toString(16).padStart(2, "0"))
    .join("")}`;

test("white text on the default orange and orange links reach 4.5:1; the brand orange stays", async ({
  site: t,
}) => {
  const { page } = await t.open("/");
  const colours = await page.evaluate(() => {
    const button = document.querySelector('nav[aria-label="Hoofdmenu"] a[href="/#aanvraag"]')!;
    const link = document.querySelector('#aanvraag a[href="/privacy-beleid"]')!;
    return {
      text: getComputedStyle(button).color,
      under: getComputedStyle(button).backgroundColor,
      link: getComputedStyle(link).color,
      brand: getComputedStyle(document.documentElement).getPropertyValue("--color-primary").trim(),
    };
  });
  const ratio = {
    button: contrastRatio(hex(colours.text), hex(colours.under)),
    link: contrastRatio(hex(colours.link), "#FFFFFF"),
    brand: colours.brand,
  };
  assert(ratio.button >= 4.5, `"Offerte Aanvragen": white on orange ${ratio.button.toFixed(2)}:1`);
  assert(ratio.link >= 4.5, `orange link on white ${ratio.link.toFixed(2)}:1`);
  assertEqual(ratio.brand.toUpperCase(), "#EA580C", "the brand colour itself is kept");
});

test("the cookie banner takes focus when it opens: one Tab reaches its first control", async ({
  site: t,
}) => {
  const { page } = await t.open("/cookie-beleid", { consent: "none" });
  const banner = page.getByRole("dialog", { name: "Wij gebruiken cookies" });
  await banner.waitFor();
  await waitFor(
    () => page.evaluate(() => document.activeElement?.getAttribute("role") === "dialog"),
    5000,
    "focus on the banner",
  );
  await page.keyboard.press("Tab");
  assert(
    await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))),
    "the first Tab stays inside the banner",
  );
  await banner.getByRole("button", { name: "Weigeren" }).click();
  await banner.waitFor({ state: "detached" });
  // Reopened from the policy page, and closed again: focus returns to the button that opened it.
  const reopen = page.getByRole("button", { name: "Cookie Instellingen" });
  await reopen.click();
  await waitFor(
    () => page.evaluate(() => document.activeElement?.getAttribute("role") === "dialog"),
    5000,
    "focus on the reopened banner",
  );
  await page.getByRole("dialog").getByRole("button", { name: "Accepteren" }).click();
  await waitFor(
    () => page.evaluate(() => document.activeElement?.textContent?.trim() === "Cookie Instellingen"),
    5000,
    "focus back on Cookie Instellingen",
  );
});

test("axe: no serious or critical violation on the login page, any admin tab or the compose window", async ({
  world,
}) => {
  // axe over every admin tab and the compose window.
  test.slow();
  // A request in the list and its e-mail in the inbox, to open on their tabs.
  await postLeadFrom(world, "axe@panel-e2e.nl", "Axe BV");
  await waitFor(
    async () =>
      (
        await world.sql.query("SELECT 1 FROM mailer.email_messages WHERE sender_email = $1", [
          "axe@panel-e2e.nl",
        ])
      ).rowCount,
    15_000,
    "the request's inbox entry",
  );
  const { page: login } = await world.open("/admin-login");
  await expectAccessible(login, "/admin-login");
  const page = await signedInPage(world);
  for (const [, label] of TABS) {
    await openTab(page, label);
    await page.waitForLoadState("networkidle");
    if (label === "Lease Aanvragen") await page.getByTestId("lease-item").first().click();
    if (label === "E-mail Inbox") await page.getByTestId("inbox-item").first().click();
    await expectAccessible(page, label);
  }
  const popup = await page.context().newPage();
  await popup.goto(`${world.baseUrl}/email-compose`);
  await popup.getByLabel("Aan").waitFor();
  await expectAccessible(popup, "/email-compose");
  await popup.close();
});
