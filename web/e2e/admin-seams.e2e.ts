// The small faults of the panel against the real stack: the tab in the URL, a failed
// "Vernieuwen" that keeps the old rows, "Opnieuw proberen" on the settings tabs, no login form for
// a signed-in admin, and a field the server refuses marked at the field. Each test signs in on a
// browser context of its own.
import type { BrowserContext, Locator, Page, Route } from "@playwright/test";
import { ADMIN_USERNAME, assert, assertEqual, test, waitFor, type AdminWorld } from "./fixtures";
import { expectNotice, openTab, postLead as postQuote, signIn } from "./admin/helpers";

const UNAVAILABLE = { code: "service_unavailable", message: "De dienst is tijdelijk niet beschikbaar" };

const signedIn = (world: AdminWorld) => world.signedIn();

const selectedTab = (page: Page) => page.locator('[role="tab"][aria-selected="true"]').innerText();
const tabParam = (page: Page) => new URL(page.url()).searchParams.get("tab");

/** Answers the GETs of one API path with 503 and the contract's error body while `failing()` holds. */
async function failWhile(context: BrowserContext, path: string, failing: () => boolean): Promise<void> {
  await context.route(
    (url) => url.pathname === path,
    (route: Route) =>
      route.request().method() === "GET" && failing()
        ? route.fulfill({ status: 503, json: UNAVAILABLE })
        : route.fallback(),
  );
}

/** Clicks "Opnieuw proberen" and waits until failWhile has refused the request it sent. */
async function retryRefused(page: Page, retry: Locator): Promise<void> {
  const refused = page.waitForResponse((response) => response.status() === 503);
  await retry.click();
  await refused;
}

const postLead = (world: AdminWorld, email: string) =>
  postQuote(world, { carUrl: "https://www.autoscout24.nl/aanbod/seams-e2e", email });

/**
 * Deletes, as the signed-in admin, a lead and the inbox entries that name its address, through the
 * admin API (and checks each answer): the test leaves the file's stack as it found it.
 */
async function removeLead(page: Page, id: string, email: string): Promise<void> {
  // No named functions in the page's code: tsx would wrap them in a helper the page lacks.
  const statuses = await page.evaluate(
    async ({ id, email }) => {
      const paths = [`/api/admin/lease-requests/${id}`];
      const inbox = (await (await fetch("/api/admin/emails?folder=inbox&limit=500")).json()) as {
        id: string;
      }[];
      for (const mail of inbox)
        if (JSON.stringify(mail).includes(email)) paths.push(`/api/admin/emails/${mail.id}`);
      const answered: number[] = [];
      for (const path of paths) {
        const answer = await fetch(path, {
          method: "DELETE",
          headers: { "content-type": "application/json" },
        });
        answered.push(answer.status);
      }
      return answered;
    },
    { id, email },
  );
  assert(
    statuses.every((status) => status < 300 || status === 404),
    `clean-up answered ${statuses.join(", ")}`,
  );
}

test("seams: the open tab is in the URL; a reload keeps it, Back and Forward move between tabs", async ({
  world,
}) => {
  const { page } = await signedIn(world);
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

test('seams: a failed "Vernieuwen" says so in Dutch and keeps the rows; the next one clears it', async ({
  world,
}) => {
  const email = "refresh@seams-e2e.nl";
  const id = await postLead(world, email);
  const { page, context } = await signedIn(world);
  try {
    let failing = false;
    await failWhile(context, "/api/admin/lease-requests", () => failing);
    await failWhile(context, "/api/admin/emails", () => failing);
    const refresh = page.getByRole("button", { name: "Vernieuwen", exact: true });
    const alert = page.getByTestId("refresh-failed");

    // The lead list.
    await openTab(page, "Lease Aanvragen");
    const rows = page.getByTestId("lease-item");
    await rows.filter({ hasText: email }).waitFor();
    const shown = await rows.count();
    failing = true;
    await refresh.click();
    await alert.waitFor();
    const text = await alert.innerText();
    assert(text.includes("Vernieuwen mislukt"), `the alert names the failure: ${text}`);
    assert(text.includes(UNAVAILABLE.message), `and the server's message: ${text}`);
    assertEqual(await rows.count(), shown, "the old rows stay");
    failing = false;
    await refresh.click();
    await alert.waitFor({ state: "detached" });
    await rows.filter({ hasText: email }).waitFor();

    // The inbox (the lead's own entry arrives through the mailer's job).
    await openTab(page, "E-mail Inbox");
    const mails = page.getByTestId("inbox-item");
    await mails.filter({ hasText: email }).waitFor({ timeout: 15_000 });
    const mailCount = await mails.count();
    failing = true;
    await refresh.click();
    await alert.waitFor();
    assert((await alert.innerText()).includes("Vernieuwen mislukt"), "the inbox says so too");
    assertEqual(await mails.count(), mailCount, "the inbox keeps its rows");
    failing = false;
    await refresh.click();
    await alert.waitFor({ state: "detached" });
  } finally {
    await removeLead(page, id, email);
  }
});

test('seams: a settings tab that could not load offers "Opnieuw proberen", which loads it', async ({
  world,
}) => {
  const { page, context } = await signedIn(world);
  let failing = false;
  await failWhile(context, "/api/admin/company-settings", () => failing);
  await failWhile(context, "/api/theme-settings", () => failing);
  const tabs: [param: string, loaded: () => Promise<void>][] = [
    ["bedrijf", () => page.getByLabel("Bedrijfsnaam").waitFor()],
    ["email", () => page.getByLabel("SendGrid API key").waitFor()],
    ["pixels", () => page.getByTestId("pixel-facebookPixelId").waitFor()],
    ["theme", () => page.getByLabel("Primaire kleur", { exact: true }).waitFor()],
  ];
  for (const [param, loaded] of tabs) {
    failing = true;
    await page.goto(`${world.baseUrl}/admin?tab=${param}`);
    const failed = page.getByTestId("load-failed");
    await failed.waitFor();
    const retry = page.getByRole("button", { name: "Opnieuw proberen" });
    // Still failing: the error stays, with its button. The route decides when the request reaches
    // it, so the failure is lifted only once this retry has been refused.
    await retryRefused(page, retry);
    await retry.waitFor();
    await failed.waitFor();
    failing = false;
    await retry.click();
    await loaded();
    assertEqual(await failed.count(), 0, `${param}: the error is gone once loaded`);
  }
});

test('seams: Analytics, Inbox, Logboek and Gebruikers that could not load say so and offer "Opnieuw proberen"', async ({
  world,
}) => {
  const { page, context } = await signedIn(world);
  let failingPath = "";
  const parts: [param: string, path: string, loaded: () => Promise<void>][] = [
    ["analytics", "/api/admin/analytics", () => page.getByTestId("analytics-totals").waitFor()],
    ["inbox", "/api/admin/emails", () => page.getByText(/E-mail Inbox \(\d+\)/).waitFor()],
    [
      "logboek",
      "/api/admin/audit-log",
      () => page.getByTestId("logboek-regel").first().or(page.getByText("Geen vermeldingen.")).waitFor(),
    ],
    ["gebruikers", "/api/admin/users", () => page.getByTestId("gebruiker").first().waitFor()],
    ["gebruikers", "/api/admin/account", () => page.getByTestId("tweestaps-status").waitFor()],
  ];
  for (const [, path] of parts) await failWhile(context, path, () => failingPath === path);
  for (const [param, path, loaded] of parts) {
    failingPath = path;
    await page.goto(`${world.baseUrl}/admin?tab=${param}`);
    // Not "Laden..." for ever: what failed, in Dutch, with a way to try again.
    const failed = page.getByTestId("load-failed");
    await failed.waitFor();
    assert(
      (await failed.innerText()).includes("tijdelijk niet beschikbaar"),
      `${path}: the server's message, got "${await failed.innerText()}"`,
    );
    const retry = page.getByRole("button", { name: "Opnieuw proberen" });
    await retryRefused(page, retry);
    await retry.waitFor();
    await failed.waitFor();
    failingPath = "";
    await retry.click();
    await loaded();
    assertEqual(await failed.count(), 0, `${path}: the error is gone once loaded`);
  }
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

test("seams: a field the server refuses (a message over 5000 characters) is marked at the field too", async ({
  site: t,
}) => {
  const { page } = await t.open("/");
  const form = page.locator("#contact form");
  await form.getByLabel("Naam").fill("Petra de Vries");
  await form.getByLabel("E-mailadres").fill("petra@seams-e2e.nl");
  await form.getByLabel("Bericht").fill("x".repeat(5001));
  await form.getByRole("button", { name: "Bericht Versturen" }).click();
  await expectNotice(page, "Fout bij Versturen");
  const message = form.getByLabel("Bericht");
  await waitFor(
    async () => (await message.getAttribute("aria-invalid")) === "true",
    5000,
    "the field is marked",
  );
  assertEqual(await page.locator("#contact-bericht-fout").innerText(), "Maximaal 5000 tekens", "its message");
  assert(await message.evaluate((element) => element === document.activeElement), "the cursor is in it");
  // Correcting the field takes its message away.
  await message.fill("Kunt u mij terugbellen?");
  await page.locator("#contact-bericht-fout").waitFor({ state: "detached" });

  await page.locator("#aanvraag-auto").fill("https://www.autoscout24.nl/aanbod/seams");
  await page.locator("#aanvraag-telefoon").fill("0611223344");
  await page.locator("#aanvraag-email").fill("quote@seams-e2e.nl");
  await page.locator("#aanvraag-bericht").fill("y".repeat(5001));
  await page.getByRole("button", { name: "Aanvraag Versturen" }).click();
  await waitFor(
    async () => (await page.locator("#aanvraag-bericht-fout").count()) === 1,
    5000,
    "the quote's message is marked",
  );
  assertEqual(
    await page.locator("#aanvraag-bericht-fout").innerText(),
    "Maximaal 5000 tekens",
    "its message",
  );
});
