import { DESKTOP_CHROME_UA, assert, assertEqual, eventually, isApiRequest, test } from "./harness";
import type { Request } from "playwright-core";

test("a visit is tracked on load and on every history change, with a stable session id", async (t) => {
  const visits: Record<string, unknown>[] = [];
  const { page, context } = await t.open("about:blank", { userAgent: DESKTOP_CHROME_UA });
  context.on("request", (request: Request) => {
    if (isApiRequest(request, "/api/track/visit"))
      visits.push(request.postDataJSON() as Record<string, unknown>);
  });
  await page.goto(new URL("/", t.baseUrl).href);
  // The tracker starts after hydration, which can take a while on a busy machine.
  await eventually(() => visits.length >= 1, "visit on load", 30_000);
  const sessionId = String(visits[0]!.sessionId);
  assert(/^session-[a-z0-9]+-\d{13}$/.test(sessionId), `session id format: ${sessionId}`);
  assertEqual(
    await page.evaluate(() => localStorage.getItem("visitor-session")),
    sessionId,
    "kept in local storage",
  );
  assertEqual(visits[0]!.page, "/", "page");

  await page.locator("footer").getByRole("link", { name: "Privacy Beleid" }).click();
  await eventually(() => visits.length >= 2, "visit after pushState", 15_000);
  assertEqual(visits[1], { sessionId, page: "/privacy-beleid", referrer: "" }, "second visit");
  await page.goBack();
  await eventually(() => visits.length >= 3, "visit after popstate", 15_000);
  assertEqual(visits[2]!.page, "/", "visit after popstate");
  await page.evaluate(() => history.replaceState(null, "", "/?bron=test"));
  await eventually(() => visits.length >= 4, "visit after replaceState");
  // Each history change is exactly one visit: nothing counted twice.
  assertEqual(
    visits.map((visit) => visit.page),
    ["/", "/privacy-beleid", "/", "/?bron=test"],
    "the visits, in order",
  );
  if (t.sql) {
    // Page views reach PostgreSQL in batches (about every second).
    await eventually(
      async () =>
        Number(
          (
            await t.sql!("SELECT count(*) FROM tracking.page_views WHERE session_key = tracking.key64($1)", [
              sessionId,
            ])
          )[0]!.count,
        ) >= 4,
      "the visits persisted as page views",
      10_000,
    );
  }
});

test("a heartbeat is sent every 30 seconds and tracking failures stay silent", async (t) => {
  const { page, context } = await t.open("about:blank");
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
  await eventually(() => visits >= 1, "the first visit", 15_000);
  await page.clock.runFor(30_500);
  await eventually(() => heartbeats.length === 1, "first heartbeat");
  await page.clock.runFor(30_000);
  await eventually(() => heartbeats.length === 2, "second heartbeat");
  const sessionId = await page.evaluate(() => localStorage.getItem("visitor-session"));
  assertEqual(heartbeats[0], { sessionId }, "heartbeat body");
  assertEqual(errors, [], "no page errors from failed tracking");
});
