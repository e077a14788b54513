// Signing in to the panel and out of it, against the real stack: /admin without a session goes to
// the login page, whose empty and wrong logins say why; a sign-in lands on the Analytics tab, whose
// tabs work from the keyboard; a signed-in admin never sees the login form; a session ended
// elsewhere, mid-work, says "Sessie verlopen" and returns to the same tab; logout ends the cookie.
import { randomBytes } from "node:crypto";
import type { Route } from "@playwright/test";
import { assert, assertEqual, waitFor, test, ADMIN_USERNAME } from "./fixtures";
import { expectNotice, openTab, postLeadFrom, selectedTab, signIn, signedInPage } from "./admin/helpers";

test("admin: /admin without a session goes to the login page; empty and wrong logins show their messages", async ({
  world,
}) => {
  // The real answers, a little later, so the pending states can be seen.
  const slow = (ms: number) => async (route: Route) => {
    await new Promise((done) => setTimeout(done, ms));
    await route.continue();
  };
  const { page } = await world.open("/admin", {
    before: async (context) => {
      await context.route("**/api/admin/me", slow(700));
      await context.route("**/api/admin/login", slow(700));
    },
    waitUntil: "commit",
  });
  await page.getByText("Admin dashboard laden...").waitFor();
  await page.waitForURL("**/admin-login");
  await page.getByRole("heading", { name: "Admin Login" }).waitFor();

  await page.getByRole("button", { name: "Inloggen" }).click();
  await page.getByText("Gebruikersnaam is verplicht").waitFor();
  await page.getByText("Wachtwoord is verplicht").waitFor();

  await signIn(page, ADMIN_USERNAME, "helemaal-fout-wachtwoord");
  await page.getByRole("button", { name: "Inloggen..." }).waitFor();
  assert(await page.getByLabel("Gebruikersnaam").isDisabled(), "username disabled while signing in");
  assert(await page.getByLabel("Wachtwoord").isDisabled(), "password disabled while signing in");
  await expectNotice(page, "Inloggen mislukt", "Onjuiste inloggegevens");
  assert(page.url().endsWith("/admin-login"), "a failed login stays on the login page");
});

test("admin: signs in and lands on the dashboard's Analytics tab with a welcome line", async ({ world }) => {
  const { page } = await world.open("/admin-login");
  await waitFor(async () => (await page.title()) === "Inloggen | Beheer", 5000, "the login page's own title");
  await signIn(page, ADMIN_USERNAME, world.password);
  await expectNotice(page, "Succesvol ingelogd", "Je bent nu ingelogd als admin.");
  await page.waitForURL("**/admin");
  await waitFor(
    async () => /^(\(\d+\) )?Analytics \| Beheer$/.test(await page.title()),
    5000,
    "the open tab's own title",
  );
  await page
    .getByTestId("welkom")
    .filter({ hasText: `Welkom, ${ADMIN_USERNAME}` })
    .waitFor();
  assertEqual(
    await page.getByRole("tab", { name: "Analytics" }).getAttribute("aria-selected"),
    "true",
    "default tab",
  );
  await page.getByText("IP Geolocation by DB-IP").waitFor();
  assertEqual(
    await page.getByRole("link", { name: "IP Geolocation by DB-IP" }).getAttribute("href"),
    "https://db-ip.com",
    "attribution link",
  );
  await page.getByTestId("visitor-chart").waitFor();

  // The tabs work from the keyboard: arrows move and select, End and Home jump, one tab stop.
  const selected = () => page.locator('[role="tab"][aria-selected="true"]').innerText();
  await page.getByRole("tab", { name: "Analytics" }).focus();
  await page.keyboard.press("ArrowRight");
  assertEqual(await selected(), "Lease Aanvragen", "ArrowRight selects the next tab");
  await page.keyboard.press("End");
  assertEqual(await selected(), "Logboek", "End selects the last tab");
  await page.keyboard.press("ArrowRight");
  assertEqual(await selected(), "Analytics", "ArrowRight wraps to the first tab");
  assertEqual(
    await page.evaluate(() => document.activeElement?.id),
    "tab-analytics",
    "focus follows the selected tab",
  );
  assertEqual(await page.locator('[role="tab"][tabindex="0"]').count(), 1, "one tab stop for the tab list");
});

test("panel: /admin-login goes straight on to the dashboard when already signed in", async ({ world }) => {
  const page = await signedInPage(world);
  await page.goto(`${world.baseUrl}/admin-login`);
  await page.waitForURL(/\/admin$/);
  await page.getByTestId("welkom").waitFor();
});

test("seams: a signed-in admin never sees the login form; after signing in, Back does not return to it", async ({
  world,
}) => {
  const { page } = await world.open("/");
  await page.goto(`${world.baseUrl}/admin-login`);
  await signIn(page, ADMIN_USERNAME, world.password);
  await page.getByTestId("welkom").waitFor();
  await page.goBack();
  await page.waitForURL((url) => url.pathname === "/");
  await page.goForward();
  await page.getByTestId("welkom").waitFor();

  // Opening /admin-login while signed in goes on to the panel without showing the form, not even
  // while the session check is under way.
  // (The observer is an inline arrow: tsx would wrap a named one in a helper the page lacks.)
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.getElementById("password")) (window as { sawLoginForm?: boolean }).sawLoginForm = true;
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(`${world.baseUrl}/admin-login`);
  await page.waitForURL((url) => url.pathname === "/admin");
  await page.getByTestId("welkom").waitFor();
  const saw = await page.evaluate(() => (window as { sawLoginForm?: boolean }).sawLoginForm ?? false);
  assertEqual(saw, false, "the login form was never shown");
});

test('panel: a session that ends mid-work says "Sessie verlopen", shows none of its notices, and returns to the same tab', async ({
  world,
}) => {
  const page = await signedInPage(world);
  await openTab(page, "E-mail Inbox");
  // A lead's live notice is up when the session ends: the login page must not show it to whoever
  // signs in next at this screen.
  await postLeadFrom(world, `sessie-${randomBytes(3).toString("hex")}@panel-e2e.nl`);
  const notice = page.getByRole("status").filter({ hasText: "Nieuwe Aanvraag" });
  await notice.waitFor();
  const session = (await page.context().cookies()).find((cookie) => cookie.name === "admin_session");
  assert(session, "signed in");
  const ended = await fetch(`${world.baseUrl}/api/admin/logout`, {
    method: "POST",
    headers: {
      cookie: `admin_session=${session.value}`,
      origin: world.baseUrl,
      "content-type": "application/json",
    },
  });
  assert(ended.ok, `the session ended elsewhere (${ended.status})`);
  // The next admin call is answered 401 (the tab's own first load may get there first).
  await page
    .getByRole("button", { name: "Vernieuwen" })
    .click({ timeout: 2000 })
    .catch(() => undefined);
  await page.waitForURL("**/admin-login");
  await page.getByRole("alert").getByText("Sessie verlopen").waitFor();
  assertEqual(await notice.count(), 0, "no notice of the ended session on the login page");
  await signIn(page, ADMIN_USERNAME, world.password);
  await page.waitForURL((url) => url.pathname === "/admin" && url.searchParams.get("tab") === "inbox");
  await waitFor(async () => (await selectedTab(page)) === "E-mail Inbox", 5000, "back on the same tab");
});

test("admin: logout returns to the login page and the old cookie no longer works", async ({
  world,
  signedIn,
}) => {
  {
    const page = signedIn.page;
    const cookies = await signedIn.context.cookies();
    const session = cookies.find((cookie) => cookie.name === "admin_session");
    assert(session, "a session cookie was set");
    assert(session.httpOnly, "the session cookie is HttpOnly");
    await page.getByRole("button", { name: "Uitloggen" }).click();
    await page.waitForURL("**/admin-login");
    const me = await fetch(`${world.baseUrl}/api/admin/me`, {
      headers: { cookie: `admin_session=${session.value}` },
    });
    assertEqual(me.status, 401, "GET /api/admin/me with the old cookie");
    await page.goto(`${world.baseUrl}/admin`);
    await page.waitForURL("**/admin-login");

    // A session ended elsewhere while the dashboard is open: the next 401 leads to the login page.
    await signIn(page, ADMIN_USERNAME, world.password);
    await page.getByTestId("welkom").waitFor();
    const fresh = (await signedIn.context.cookies()).find((cookie) => cookie.name === "admin_session");
    const ended = await fetch(`${world.baseUrl}/api/admin/logout`, {
      method: "POST",
      headers: {
        cookie: `admin_session=${fresh!.value}`,
        origin: world.baseUrl,
        "content-type": "application/json",
      },
    });
    assert(ended.ok, `logout elsewhere answered ${ended.status}`);
    // Any admin call now answers 401 (the live feed's reconnect may get there first).
    await page
      .getByRole("tab", { name: "Lease Aanvragen" })
      .click({ timeout: 2000 })
      .catch(() => undefined);
    await page.waitForURL("**/admin-login");
  }
});
