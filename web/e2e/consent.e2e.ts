import { expectAccessible } from "./axe";
import { assert, assertEqual, waitFor, test } from "./fixtures";

const PIXELS = {
  facebookPixelId: "1234567890123",
  snapchatPixelId: "3f1c2a4e-9b7d-4c1e-8a2f-0d5e6b7c8a9f",
  tiktokPixelId: "C4ABCDEFGHIJ12345",
};
const PIXEL_HOSTS = ["connect.facebook.net", "sc-static.net", "analytics.tiktok.com"];

const pixelRequests = (urls: string[]) => urls.filter((url) => PIXEL_HOSTS.includes(new URL(url).host));

test("the cookie banner shows on a first visit and no pixel loads before consent", async ({ site: t }) => {
  const { page } = await t.open("/", { consent: "none", company: PIXELS });
  const banner = page.getByRole("dialog", { name: "Wij gebruiken cookies" });
  await banner.waitFor();
  await page.waitForLoadState("networkidle");
  await page.getByRole("navigation", { name: "Hoofdmenu" }).getByRole("link", { name: "Over Ons" }).click();
  await page.waitForURL("**/over-ons");
  await page.waitForLoadState("networkidle");
  assertEqual(pixelRequests(t.externalRequests), [], "pixel requests before consent");
  const html = await page.content();
  assert(!html.includes(PIXELS.facebookPixelId), "pixel id written into the HTML");
});

test("accepting loads the configured pixels, with a page view per route change", async ({ site: t }) => {
  const { page, context } = await t.open("/", {
    consent: "none",
    company: { facebookPixelId: PIXELS.facebookPixelId },
  });
  await page.getByRole("button", { name: "Accepteren" }).click();
  await waitFor(
    () => t.externalRequests.some((url) => url === "https://connect.facebook.net/en_US/fbevents.js"),
    5000,
    "Meta script",
  );
  assertEqual(
    pixelRequests(t.externalRequests).map((url) => new URL(url).host),
    ["connect.facebook.net"],
    "only the configured pixel",
  );
  const cookie = (await context.cookies()).find((c) => c.name === "cookie_consent");
  assertEqual(cookie?.value, "v1.a1.m1", "consent cookie");
  const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86400;
  assert(days > 364 && days < 366, `consent kept one year (${days.toFixed(1)} days)`);
  const pageViews = () =>
    page.evaluate(
      () =>
        ((window as unknown as { fbq: { queue: unknown[][] } }).fbq.queue ?? []).filter(
          (args) => args[0] === "track" && args[1] === "PageView",
        ).length,
    );
  assertEqual(await pageViews(), 1, "first page view");
  await page.locator("footer").getByRole("link", { name: "Fleet Management" }).click();
  await page.waitForURL("**/fleet-management");
  await waitFor(async () => (await pageViews()) === 2, 5000, "page view after the route change");
  assert(!(await page.getByRole("dialog").isVisible()), "banner closed after the choice");
});

test("all three pixels load after consent when their ids are set; invalid ids never load", async ({
  site: t,
}) => {
  const { page } = await t.open("/", { consent: { analytics: false, marketing: true }, company: PIXELS });
  await waitFor(() => pixelRequests(t.externalRequests).length === 3, 5000, "three pixel scripts");
  const urls = pixelRequests(t.externalRequests);
  assert(urls.includes("https://sc-static.net/scevent.min.js"), "Snapchat script");
  assert(
    urls.some((url) =>
      url.startsWith("https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=C4ABCDEFGHIJ12345"),
    ),
    "TikTok",
  );
  await page.close();
  const invalid = await t.open("/", {
    consent: { analytics: true, marketing: true },
    company: { facebookPixelId: "123", snapchatPixelId: "x", tiktokPixelId: "<script>" },
  });
  await invalid.page.waitForLoadState("networkidle");
  assertEqual(pixelRequests(t.externalRequests).length, 3, "no pixel for invalid ids");
});

test("refusing or choosing settings without marketing keeps pixels off; /cookie-beleid reopens the banner", async ({
  site: t,
}) => {
  const { page, context } = await t.open("/cookie-beleid", { consent: "none", company: PIXELS });
  await page.getByRole("button", { name: "Weigeren" }).click();
  assertEqual(
    (await context.cookies()).find((c) => c.name === "cookie_consent")?.value,
    "v1.a0.m0",
    "refused",
  );
  await page.getByRole("button", { name: "Cookie Instellingen" }).click();
  const banner = page.getByRole("dialog", { name: "Wij gebruiken cookies" });
  await banner.waitFor();
  assert(await banner.getByLabel(/Noodzakelijk/).isDisabled(), "necessary cannot be switched off");
  await banner.getByLabel(/Analytisch/).check();
  await banner.getByRole("button", { name: "Voorkeuren Opslaan" }).click();
  assertEqual(
    (await context.cookies()).find((c) => c.name === "cookie_consent")?.value,
    "v1.a1.m0",
    "analytics only",
  );
  await page.waitForLoadState("networkidle");
  assertEqual(pixelRequests(t.externalRequests), [], "no pixels without marketing consent");
  // On a later visit the settings show the saved choice, not every box off.
  await page.reload();
  await page.getByRole("button", { name: "Cookie Instellingen" }).click();
  assert(await banner.getByLabel(/Analytisch/).isChecked(), "analytics shown as allowed");
  assert(!(await banner.getByLabel(/Marketing/).isChecked()), "marketing shown as refused");
  await banner.getByLabel(/Marketing/).check();
  await banner.getByRole("button", { name: "Voorkeuren Opslaan" }).click();
  await waitFor(
    () => pixelRequests(t.externalRequests).length === 3,
    5000,
    "pixels after granting marketing",
  );
});

test("withdrawing marketing consent takes the pixels and their cookies away without a manual reload", async ({
  site: t,
}) => {
  const { page, context } = await t.open("/", {
    consent: { analytics: false, marketing: true },
    company: PIXELS,
  });
  await waitFor(() => pixelRequests(t.externalRequests).length === 3, 5000, "three pixel scripts");
  // What the vendors' scripts would have set on the site's own domain.
  await context.addCookies(
    ["_fbp", "_scid", "_ttp"].map((name) => ({ name, value: "vendor", url: t.baseUrl })),
  );
  await page.locator("footer").getByRole("link", { name: "Cookie Beleid" }).click();
  await page.waitForURL("**/cookie-beleid");
  await page.getByRole("button", { name: "Cookie Instellingen" }).click();
  const banner = page.getByRole("dialog", { name: "Wij gebruiken cookies" });
  await banner.getByLabel(/Marketing/).uncheck();
  await banner.getByRole("button", { name: "Voorkeuren Opslaan" }).click();

  const gone = async () =>
    (await page.locator("script[data-pixel]").count()) === 0 &&
    (await page.evaluate(() => {
      const w = window as unknown as Record<string, unknown>;
      return !w.fbq && !w.snaptr && !w.ttq;
    })) &&
    !(await context.cookies()).some((c) => ["_fbp", "_scid", "_ttp"].includes(c.name));
  await waitFor(gone, 10_000, "pixels, their globals and their cookies gone");
  await page.waitForLoadState("networkidle");
  const requests = pixelRequests(t.externalRequests).length;
  await page.locator("footer").getByRole("link", { name: "Over Ons" }).click();
  await page.waitForURL("**/over-ons");
  await page.waitForLoadState("networkidle");
  assertEqual(pixelRequests(t.externalRequests).length, requests, "no pixel request after withdrawal");
  assert(await gone(), "still gone after a route change");
  assertEqual(
    (await context.cookies()).find((c) => c.name === "cookie_consent")?.value,
    "v1.a0.m0",
    "the choice",
  );
});

test("with marketing consent the quote confirmation's pixel Lead event carries the event id the server sends", async ({
  site: t,
}) => {
  const { page } = await t.open("/?utm_source=facebook&utm_campaign=lente&fbclid=IwAR-e2e-click", {
    consent: "none",
    company: { facebookPixelId: PIXELS.facebookPixelId, snapchatPixelId: PIXELS.snapchatPixelId },
  });
  await page.getByRole("button", { name: "Accepteren" }).click();
  const form = page.locator("#aanvraag");
  await form.getByLabel("Link naar de auto").fill("https://www.marktplaats.nl/a/auto-s/skoda-enyaq");
  await form.getByLabel("Telefoonnummer").fill("06 87654321");
  await form.getByLabel("E-mailadres").fill("pixel@bedrijf.nl");
  const answered = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === "/api/lease-requests" && response.request().method() === "POST",
  );
  await form.getByRole("button", { name: "Aanvraag Versturen" }).click();
  const response = await answered;
  const sent = response.request().postDataJSON() as {
    marketingConsent: boolean;
    eventId: string;
    clickIds: { fbclid: string; clickedAt: number };
  };
  const { eventId } = (await response.json()) as { eventId: string };
  assertEqual(sent.marketingConsent, true, "the page's marketing consent");
  assertEqual(sent.clickIds.fbclid, "IwAR-e2e-click", "the landing URL's fbclid");
  assertEqual(eventId, sent.eventId, "the server answers the page's event id");
  await form.getByText("Bedankt voor uw aanvraag!").waitFor();
  const calls = await page.evaluate(() => {
    const w = window as unknown as { fbq: { queue: unknown[][] }; snaptr: { queue: unknown[][] } };
    return { meta: w.fbq.queue, snap: w.snaptr.queue };
  });
  const lead = calls.meta.find((args) => args[0] === "track" && args[1] === "Lead");
  assertEqual(lead?.[3], { eventID: eventId }, "fbq Lead with the server's event id");
  const signUp = calls.snap.find((args) => args[0] === "track" && args[1] === "SIGN_UP");
  assertEqual(signUp?.[2], { client_dedup_id: eventId }, "snaptr SIGN_UP with the same id");
  if (t.sql) {
    const rows = await t.sql(
      "SELECT event_id, click_ids->>'fbclid' AS fbclid FROM leads.lease_requests WHERE email = $1",
      ["pixel@bedrijf.nl"],
    );
    assertEqual(rows.at(-1), { event_id: eventId, fbclid: "IwAR-e2e-click" }, "kept with the lead");
  }
});

test('"Cookie-instellingen" in the footer of every page reopens the banner with the saved choice at once, by keyboard, at 1280 and 390 px', async ({
  site: t,
}) => {
  const { page, context } = await t.open("/", { consent: { analytics: true, marketing: false } });
  const banner = page.getByRole("dialog", { name: "Wij gebruiken cookies" });
  const footerButton = page.locator("footer").getByRole("button", { name: "Cookie-instellingen" });
  for (const path of [
    "/",
    "/zakelijke-lease",
    "/financiele-lease",
    "/operationele-lease",
    "/fleet-management",
    "/over-ons",
    "/voorwaarden",
    "/privacy-beleid",
    "/cookie-beleid",
    "/bestaat-niet",
  ]) {
    await page.goto(`${t.baseUrl}${path}`);
    await footerButton.waitFor();
    assertEqual(await footerButton.count(), 1, `Cookie-instellingen in the footer of ${path}`);
  }
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`${t.baseUrl}/over-ons`);
    assertEqual(await banner.count(), 0, "no banner once a choice is saved");
    // The keyboard: the footer's button, Enter.
    await waitFor(() => footerButton.evaluate((b) => b.closest("[data-island]") !== null), 5000, "footer");
    await footerButton.focus();
    await page.keyboard.press("Enter");
    await banner.waitFor();
    await waitFor(
      () => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))),
      5000,
      "focus in the reopened banner",
    );
    // The saved choice shows at once, without "Instellingen" first.
    assertEqual(
      await banner.getByTestId("cookie-opgeslagen-keuze").innerText(),
      "Uw opgeslagen keuze: analytische cookies aan, marketingcookies uit. U kunt deze hieronder aanpassen.",
      "the saved choice in words",
    );
    assert(await banner.getByLabel(/Analytisch/).isChecked(), "analytics ticked as saved");
    assert(!(await banner.getByLabel(/Marketing/).isChecked()), "marketing unticked as saved");
    // All of it within reach: taller than a phone, it scrolls inside rather than past the top.
    const box = await banner.boundingBox();
    assert(
      box && box.y >= 0 && box.height <= viewport.height,
      `the banner within the screen: ${JSON.stringify(box)}`,
    );
    await banner.getByRole("heading", { name: "Wij gebruiken cookies" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/h-a11y/cookie-heropend-${viewport.width}.png` });
    await expectAccessible(page, `the reopened banner at ${viewport.width} px`);
    // Kept as it is with the keyboard: Tab to "Voorkeuren Opslaan", Enter; focus goes back to the footer.
    const saveButton = banner.getByRole("button", { name: "Voorkeuren Opslaan" });
    for (let i = 0; i < 10 && !(await saveButton.evaluate((b) => b === document.activeElement)); i++)
      await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await banner.waitFor({ state: "detached" });
    await waitFor(
      () => footerButton.evaluate((b) => b === document.activeElement),
      5000,
      "focus back on Cookie-instellingen",
    );
    assertEqual(
      (await context.cookies()).find((c) => c.name === "cookie_consent")?.value,
      "v1.a1.m0",
      "the choice kept",
    );
  }
});
