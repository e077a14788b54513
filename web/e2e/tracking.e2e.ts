import { DESKTOP_CHROME_UA, assert, assertEqual, waitFor, isApiRequest, test } from "./fixtures";
import type { BrowserContext, Page, Request } from "@playwright/test";

const ANALYTICS_ONLY = { analytics: true, marketing: false };

test("with analytics consent a visit is tracked on load and on every history change, with a stable session id", async ({
  site: t,
}) => {
  const visits: Record<string, unknown>[] = [];
  const { page, context } = await t.open("about:blank", {
    userAgent: DESKTOP_CHROME_UA,
    consent: ANALYTICS_ONLY,
  });
  context.on("request", (request: Request) => {
    if (isApiRequest(request, "/api/track/visit"))
      visits.push(request.postDataJSON() as Record<string, unknown>);
  });
  await page.goto(new URL("/", t.baseUrl).href);
  // The tracker starts after hydration, which can take a while on a busy machine.
  await waitFor(() => visits.length >= 1, 30_000, "visit on load");
  const sessionId = String(visits[0]!.sessionId);
  assert(/^session-[a-z0-9]+-\d{13}$/.test(sessionId), `session id format: ${sessionId}`);
  assertEqual(
    await page.evaluate(() => localStorage.getItem("visitor-session")),
    sessionId,
    "kept in local storage",
  );
  assertEqual(visits[0]!.page, "/", "page");

  await page.locator("footer").getByRole("link", { name: "Privacy Beleid" }).click();
  await waitFor(() => visits.length >= 2, 15_000, "visit after pushState");
  assertEqual(visits[1], { sessionId, page: "/privacy-beleid", referrer: "" }, "second visit");
  await page.goBack();
  await waitFor(() => visits.length >= 3, 15_000, "visit after popstate");
  assertEqual(visits[2]!.page, "/", "visit after popstate");
  await page.evaluate(() => history.replaceState(null, "", "/?bron=test"));
  await waitFor(() => visits.length >= 4, 5000, "visit after replaceState");
  // Each history change is exactly one visit: nothing counted twice.
  assertEqual(
    visits.map((visit) => visit.page),
    ["/", "/privacy-beleid", "/", "/?bron=test"],
    "the visits, in order",
  );
  if (t.sql) {
    // Page views reach PostgreSQL in batches (about every second).
    await waitFor(
      async () =>
        Number(
          (
            await t.sql!("SELECT count(*) FROM tracking.page_views WHERE session_key = tracking.key64($1)", [
              sessionId,
            ])
          )[0]!.count,
        ) >= 4,
      10_000,
      "the visits persisted as page views",
    );
  }
});

test("a heartbeat is sent every 30 seconds and tracking failures stay silent", async ({ site: t }) => {
  const { page, context } = await t.open("about:blank", { consent: ANALYTICS_ONLY });
  await context.clock.install();
  const heartbeats: unknown[] = [];
  let visits = 0;
  context.on("request", (request: Request) => {
    if (isApiRequest(request, "/api/track/heartbeat")) heartbeats.push(request.postDataJSON());
    if (isApiRequest(request, "/api/track/visit")) visits++;
  });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await context.route("**/api/track/**", (route) => route.fulfill({ status: 500, body: "kapot" }));
  await page.goto(new URL("/", t.baseUrl).href);
  await page.locator("h1").waitFor();
  // The tracking client starts after hydration; its first visit shows the heartbeat timer is set.
  await waitFor(() => visits >= 1, 15_000, "the first visit");
  await page.clock.runFor(30_500);
  await waitFor(() => heartbeats.length === 1, 5000, "first heartbeat");
  await page.clock.runFor(30_000);
  await waitFor(() => heartbeats.length === 2, 5000, "second heartbeat");
  const sessionId = await page.evaluate(() => localStorage.getItem("visitor-session"));
  assertEqual(heartbeats[0], { sessionId }, "heartbeat body");
  assertEqual(errors, [], "no page errors from failed tracking");
});

/** What the site keeps on the device: storage of both kinds, and the cookies apart from the choice. */
async function deviceState(page: Page, context: BrowserContext) {
  return {
    localStorage: await page.evaluate(() => Object.keys(localStorage)),
    sessionStorage: await page.evaluate(() => Object.keys(sessionStorage)),
    cookies: (await context.cookies()).map((c) => c.name).filter((name) => name !== "cookie_consent"),
  };
}
const NOTHING_KEPT = { localStorage: [], sessionStorage: [], cookies: [] };

test("without analytics consent (no choice yet, then Weigeren) the visit is counted but nothing is stored on the device", async ({
  site: t,
}) => {
  const started = new Date();
  const visits: Record<string, unknown>[] = [];
  const heartbeats: unknown[] = [];
  const { page, context } = await t.open("about:blank", { userAgent: DESKTOP_CHROME_UA, consent: "none" });
  await context.clock.install();
  context.on("request", (request: Request) => {
    if (isApiRequest(request, "/api/track/visit"))
      visits.push(request.postDataJSON() as Record<string, unknown>);
    if (isApiRequest(request, "/api/track/heartbeat")) heartbeats.push(request.postDataJSON());
  });
  await page.goto(new URL("/over-ons", t.baseUrl).href);
  await waitFor(() => visits.length >= 1, 30_000, "the visit on load, before any choice");
  assertEqual(visits[0], { page: "/over-ons", referrer: "" }, "a visit without an id");
  assertEqual(await deviceState(page, context), NOTHING_KEPT, "before a choice");

  await page.getByRole("button", { name: "Weigeren" }).click();
  await page.clock.runFor(30_500);
  await waitFor(() => heartbeats.length >= 1, 5000, "a heartbeat after Weigeren");
  assertEqual(heartbeats[0], {}, "a heartbeat without an id");
  await page.locator("footer").getByRole("link", { name: "Fleet Management" }).click();
  await waitFor(() => visits.length >= 2, 5000, "the visit after navigating");
  assertEqual(visits[1], { page: "/fleet-management", referrer: "" }, "still no id after Weigeren");
  assertEqual(await deviceState(page, context), NOTHING_KEPT, "after Weigeren");
  if (t.sql) {
    // Counted all the same: the page views reach PostgreSQL under the server's daily id.
    await waitFor(
      async () =>
        Number(
          (
            await t.sql!(
              `SELECT count(*) FROM tracking.page_views v JOIN tracking.pages p ON p.id = v.page_id
               WHERE p.path = ANY($1) AND v.occurred_at >= $2`,
              [["/over-ons", "/fleet-management"], started],
            )
          )[0]!.count,
        ) >= 2,
      10_000,
      "both visits counted",
    );
  }
});

test("withdrawing analytics consent removes the visitor id from the device at once; the visit goes on without it", async ({
  site: t,
}) => {
  const visits: Record<string, unknown>[] = [];
  const { page, context } = await t.open("about:blank", { userAgent: DESKTOP_CHROME_UA, consent: "none" });
  context.on("request", (request: Request) => {
    if (isApiRequest(request, "/api/track/visit"))
      visits.push(request.postDataJSON() as Record<string, unknown>);
  });
  await page.goto(new URL("/cookie-beleid", t.baseUrl).href);
  await page.getByRole("button", { name: "Accepteren" }).click();
  const id = await waitFor(
    () => page.evaluate(() => localStorage.getItem("visitor-session")),
    5000,
    "the id",
  );
  await page.locator("footer").getByRole("link", { name: "Over Ons" }).click();
  await waitFor(() => visits.some((v) => v.page === "/over-ons"), 5000, "visit with consent");
  assertEqual(visits.find((v) => v.page === "/over-ons")?.sessionId, id, "the id after consent");

  await page.locator("footer").getByRole("link", { name: "Cookie Beleid" }).click();
  await page.getByRole("button", { name: "Cookie Instellingen" }).click();
  const banner = page.getByRole("dialog", { name: "Wij gebruiken cookies" });
  await banner.getByLabel(/Analytisch/).uncheck();
  await banner.getByRole("button", { name: "Voorkeuren Opslaan" }).click();
  assertEqual(await deviceState(page, context), NOTHING_KEPT, "right after withdrawing");
  await page.locator("footer").getByRole("link", { name: "Algemene Voorwaarden" }).click();
  await waitFor(() => visits.some((v) => v.page === "/voorwaarden"), 5000, "visit after withdrawal");
  assertEqual(
    visits.find((v) => v.page === "/voorwaarden"),
    { page: "/voorwaarden", referrer: "" },
    "no id",
  );
});
