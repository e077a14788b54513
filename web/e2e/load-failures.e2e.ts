// The panel when the API fails, against the real stack with answers refused in the browser: a
// failed "Vernieuwen" says so in Dutch and keeps the rows; a tab that could not load (the settings,
// Analytics, Inbox, Logboek, Gebruikers) says so and offers "Opnieuw proberen", which loads it.
import type { BrowserContext, Locator, Page, Route } from "@playwright/test";
import { assert, assertEqual, test, type AdminWorld } from "./fixtures";
import { openTab, postLead as postQuote } from "./admin/helpers";

const UNAVAILABLE = { code: "service_unavailable", message: "De dienst is tijdelijk niet beschikbaar" };

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

test('seams: a failed "Vernieuwen" says so in Dutch and keeps the rows; the next one clears it', async ({
  world,
}) => {
  const email = "refresh@seams-e2e.nl";
  const id = await postLead(world, email);
  const { page, context } = await world.signedIn();
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
  const { page, context } = await world.signedIn();
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
  const { page, context } = await world.signedIn();
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
