// Campaigns end to end, tried as new visitors and the broker would: three visitors land from one
// Meta campaign; two accept all cookies in the banner on the landing page, one only the analytical
// ones (through the banner's settings), and each browses on and sends a quote through the form.
// Staff import the campaign's Meta spend export in Campagnes, sign one lead (with Meta down) and lose
// another in the lead's detail, and read what the campaign cost and earned in the report. Meta
// heard of each consenting lead from the server with the browser pixel's own event id, and of the
// contract with its value once it was back; of the third visitor it heard nothing.
//
// The worker's stack is shared with other files (fixtures.ts): the campaign is this test's own
// ("lente-<tag>"), so its figures are exact whatever ran before, and the test switches Meta off
// again at the end. Meta's API is the world's local receiver (META_API_BASE_URL, world.ts).
import { createHash, randomBytes } from "node:crypto";
import type { BrowserContext, Page } from "@playwright/test";
import type { CreateLeaseRequestResponse } from "@lease/contracts";
import { assert, assertEqual, test, waitFor, type AdminWorld } from "./fixtures";
import {
  adminApi,
  amsterdamToday,
  dismissNotice,
  expectNotice,
  importSpendExport,
  openLead,
  openTab,
  saveSettings,
  saveStage,
  sendQuoteForm,
  todaysReportRow,
} from "./admin/helpers";

const PIXEL_ID = "1234567890123456";
const TOKEN = "EAAB-lente-e2e-conversions-token-0123456789";
const PIXEL_SCRIPT = "https://connect.facebook.net/en_US/fbevents.js";
/**
 * Meta's pixel script (facebook.net is out of reach) as far as the page sees it: like the real one
 * it takes over the page's fbq queue and handles every call after it, here by recording it.
 */
const PIXEL_STUB = `(function () {
  var fbq = window.fbq;
  fbq.callMethod = function () { window.__metaPixelCall(Array.prototype.slice.call(arguments)); };
  fbq.queue.splice(0).forEach(function (args) { fbq.callMethod.apply(null, args); });
})();`;

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

interface Visit {
  page: Page;
  email: string;
  fbclid: string;
  contactNumber: string;
  quote: CreateLeaseRequestResponse;
  /** Every fbq call of the visit's pages, and how often the pixel script was loaded. */
  pixel: { calls: unknown[][]; loads: number };
  /** The landing page started between these (ms): the click the fbc names. */
  landed: { from: number; to: number };
}

/**
 * A visitor clicks the campaign's ad, makes a cookie choice in the banner of the landing page, reads
 * "Over Ons", asks for a quote from the menu and sends the form.
 */
async function visitFromAd(
  world: AdminWorld,
  campaign: string,
  choice: "accept all" | "analytics only",
  who: { email: string; companyName: string; fbclid: string; contactNumber: string },
): Promise<Visit> {
  const pixel = { calls: [] as unknown[][], loads: 0 };
  const recordPixel = async (context: BrowserContext) => {
    await context.exposeFunction("__metaPixelCall", (args: unknown[]) => void pixel.calls.push(args));
    await context.route(PIXEL_SCRIPT, (route) => {
      pixel.loads++;
      return route.fulfill({ status: 200, contentType: "text/javascript", body: PIXEL_STUB });
    });
  };
  const from = Date.now();
  const { page } = await world.open(
    `/financiele-lease?utm_source=facebook&utm_medium=paid_social&utm_campaign=${campaign}&fbclid=${who.fbclid}`,
    { before: recordPixel },
  );
  const banner = page.getByRole("dialog");
  if (choice === "accept all") {
    await banner.getByRole("button", { name: "Accepteren" }).click();
  } else {
    await banner.getByRole("button", { name: "Instellingen" }).click();
    await banner.getByLabel("Analytisch").check();
    await banner.getByRole("button", { name: "Voorkeuren Opslaan" }).click();
  }
  await banner.waitFor({ state: "hidden" });
  // The page took the click id in when React started it, which the banner's button needs too.
  const landed = { from, to: Date.now() };
  const menu = page.getByRole("navigation", { name: "Hoofdmenu" });
  await menu.getByRole("link", { name: "Over Ons" }).click();
  await page.waitForURL("**/over-ons");
  await page.getByRole("heading", { level: 1 }).waitFor();
  await menu.getByRole("link", { name: "Offerte Aanvragen" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  const quote = await sendQuoteForm(page, who);
  return { page, ...who, quote, pixel, landed };
}

/**
 * The report's figures of a campaign's row as the panel writes them, by column, once it counts its
 * contracts (the tab shows what it had before until its own answer is in).
 */
async function reportCells(
  admin: Page,
  campaign: string,
  contracts: string,
): Promise<Record<string, string>> {
  const row = admin.getByTestId("campaign-report").getByTestId("report-row").filter({ hasText: campaign });
  await row
    .locator('[data-column="contracts"]')
    .filter({ hasText: new RegExp(`^${contracts}$`) })
    .waitFor();
  const cells: Record<string, string> = {};
  for (const column of [
    "spend",
    "leads",
    "contracts",
    "commission",
    "costPerLead",
    "costPerContract",
    "roas",
  ])
    cells[column] = (await row.locator(`[data-column="${column}"]`).innerText()).trim();
  return cells;
}

test("campaign story: three visitors from a Meta campaign, its spend, a contract and a lost lead; the report and Meta's events add up", async ({
  world,
  signedIn,
}) => {
  test.setTimeout(180_000);
  const tag = randomBytes(3).toString("hex");
  const campaign = `lente-${tag}`;
  const admin = signedIn.page;
  const meta = world.meta;

  // Staff switch Meta on: the pixel id (the Pixels tab's own test is in site-settings.e2e.ts) and, in
  // "Conversies via de server", the switch and the Conversions API token.
  await saveSettings(admin, { facebookPixelId: PIXEL_ID });
  await openTab(admin, "Social Media Pixels");
  const metaSettings = admin.getByTestId("conversies-meta");
  await metaSettings.getByLabel("Conversies versturen").check();
  await metaSettings.getByLabel("Toegangstoken").fill(TOKEN);
  await admin.getByRole("button", { name: "Conversies Opslaan" }).click();
  await expectNotice(admin, "Conversies Opgeslagen");
  await metaSettings.getByText("Token opgeslagen").waitFor();
  await dismissNotice(admin);

  // Three visitors from the campaign's ads, each with a click id of their own.
  const people = ["Een", "Twee", "Drie"].map((n, i) => ({
    // Typed with capitals: Meta gets the hash of the address as its rules normalise it.
    email: `Lente.${n}.${tag}@Voorbeeld.NL`,
    companyName: `Lente ${n} ${tag} BV`,
    fbclid: `IwAR-lente-${n.toLowerCase()}-${tag}`,
    contactNumber: `06 1122 334${i}`,
  }));
  const one = await visitFromAd(world, campaign, "accept all", people[0]!);
  const two = await visitFromAd(world, campaign, "accept all", people[1]!);
  const three = await visitFromAd(world, campaign, "analytics only", people[2]!);

  // The confirmation's pixel Lead event carries the event id the server answered; the third
  // visitor's pages never loaded the pixel and the server gave the form no event id.
  for (const visit of [one, two]) {
    assert(visit.quote.eventId, `an event id for ${visit.email}`);
    const lead = visit.pixel.calls.find((args) => args[0] === "track" && args[1] === "Lead");
    assertEqual(lead?.[3], { eventID: visit.quote.eventId }, `fbq Lead of ${visit.email}`);
    assertEqual(visit.pixel.loads, 1, `the pixel loaded once for ${visit.email}`);
  }
  assertEqual(three.quote.eventId, undefined, "no event id without marketing consent");
  assertEqual(three.pixel, { calls: [], loads: 0 }, "no pixel without marketing consent");

  // Meta got each consenting lead's Lead event from the server, as its Conversions API documents it.
  const leadEvent = (visit: Visit) =>
    meta.accepted().find((r) => r.event.event_name === "Lead" && r.event.event_id === visit.quote.eventId);
  await waitFor(() => leadEvent(one) && leadEvent(two), 20_000, "Meta's Lead events of the two leads");
  for (const visit of [one, two]) {
    const received = leadEvent(visit)!;
    assertEqual([received.pixelId, received.token], [PIXEL_ID, TOKEN], "the pixel and token");
    const event = received.event as {
      action_source: string;
      event_source_url: string;
      user_data: { em: string[]; ph: string[]; fbc: string; client_user_agent: string };
    };
    assertEqual(event.action_source, "website", "action_source");
    assertEqual(event.event_source_url, `${world.baseUrl}/`, "the page the form was sent from");
    assertEqual(event.user_data.em, [sha256(visit.email.toLowerCase())], `hashed e-mail of ${visit.email}`);
    const phone = `31${visit.contactNumber.replace(/\D/g, "").slice(1)}`;
    assertEqual(event.user_data.ph, [sha256(phone)], "hashed phone, with its country code");
    const fbc = /^fb\.1\.(\d{13})\.(.+)$/.exec(event.user_data.fbc);
    assertEqual(fbc?.[2], visit.fbclid, "fbc carries the landing URL's fbclid");
    const clickedAt = Number(fbc![1]);
    assert(
      clickedAt >= visit.landed.from && clickedAt <= visit.landed.to,
      `fbc's time is the landing: ${clickedAt} not in ${JSON.stringify(visit.landed)}`,
    );
    assertEqual(
      event.user_data.client_user_agent,
      await visit.page.evaluate(() => navigator.userAgent),
      "the visitor's user agent",
    );
  }

  // Staff import the campaign's spend: Meta Ads Manager's export (English, by day) of today.
  const today = amsterdamToday();
  await openTab(admin, "Campagnes");
  const csv = [
    "Campaign name,Day,Reach,Impressions,Amount spent (EUR),Reporting starts,Reporting ends",
    `${campaign},${today},9120,12400,300.00,${today},${today}`,
  ].join("\n");
  const result = await importSpendExport(admin, "lente-export.csv", csv);
  // Up to 30 s: once, on a CI host running three suites on two cores, the answer took longer than 10.
  await result
    .filter({ hasText: "Meta (Facebook, Instagram): 1 ingelezen, 0 ongewijzigd." })
    .waitFor({ timeout: 30_000 });
  await dismissNotice(admin);

  // The first lead signs, while Meta is down: the panel shows the contract's event waiting.
  await openTab(admin, "Lease Aanvragen");
  await admin.getByRole("button", { name: "Vernieuwen" }).click();
  await meta.down();
  let detail = await openLead(admin, people[0]!.companyName);
  await saveStage(admin, detail, "Contract getekend", { "Commissie (€)": "1.200" }, "Getekend");
  const metaOfOne = detail.getByTestId("lead-conversions").locator('[data-platform="meta"]');
  await metaOfOne
    .locator("li")
    .filter({ hasText: "Getekend" })
    .filter({ hasText: "Wacht" })
    .filter({ hasText: "Meta is niet bereikbaar; het wordt later opnieuw geprobeerd." })
    .waitFor({ timeout: 20_000 });

  // The second is lost, with its reason.
  detail = await openLead(admin, people[1]!.companyName);
  const stage = await saveStage(
    admin,
    detail,
    "Verloren",
    { Reden: "elders getekend", "Toelichting (optioneel)": "Getekend bij de dealer zelf." },
    "Verloren",
  );
  await stage.getByTestId("stage-summary").filter({ hasText: "elders getekend" }).waitFor();

  // The third told no platform anything, and the panel says why.
  detail = await openLead(admin, people[2]!.companyName);
  await detail
    .getByTestId("lead-conversions")
    .getByText("Geen toestemming voor marketingcookies: er is niets aan advertentieplatforms gemeld.")
    .waitFor();

  // Meta stays down until the contract's event has failed twice: conversions.send is tried again
  // after 5, 10, 20, 40 s … (the job catalog's backoff; no setting changes it), so the issue's
  // minute down would add over a minute to the suite, and two failed tries show the same: the
  // event waits, and arrives with the next try (10 s later) once Meta is back.
  await waitFor(
    async () =>
      ((
        await world.sql.query<{ attempts: number }>(
          `SELECT attempts FROM conversions.deliveries
            WHERE lead_id = $1 AND platform = 'meta' AND event = 'getekend'`,
          [one.quote.id],
        )
      ).rows[0]?.attempts ?? 0) >= 2 || undefined,
    20_000,
    "two failed tries of the contract's event",
  );
  await meta.up();

  // The campaign report: the contract counts for the day its lead arrived.
  const figures = await waitFor(
    async () => {
      const row = await todaysReportRow(admin, campaign);
      return row && row.leads === 3 && row.contracts === 1 ? row : undefined;
    },
    20_000,
    "the report to count the three quotes and the contract",
  );
  assertEqual([figures.source, figures.medium], ["facebook", "paid_social"], "the campaign's row");
  await openTab(admin, "Campagnes");
  assertEqual(
    await reportCells(admin, campaign, "1"),
    {
      spend: "€ 300,00",
      leads: "3",
      contracts: "1",
      commission: "€ 1.200,00",
      costPerLead: "€ 100,00",
      costPerContract: "€ 300,00",
      roas: "4,0",
    },
    `the report's row of ${campaign}`,
  );

  const purchases = () =>
    meta
      .accepted()
      .filter(
        (r) =>
          r.event.event_name === "Purchase" &&
          JSON.stringify((r.event.user_data as { em: string[] }).em) ===
            JSON.stringify([sha256(one.email.toLowerCase())]),
      );
  // Meta came back: the contract's event arrived once, with its value, and nothing ever of the third.
  const [purchase] = await waitFor(
    () => (purchases().length > 0 ? purchases() : undefined),
    30_000,
    "the contract's event after Meta came back",
  );
  assertEqual(purchase!.event.custom_data, { value: 1200, currency: "EUR" }, "the contract's value");
  const third = sha256(three.email.toLowerCase());
  assert(
    !meta.received.some((r) => (r.event.user_data as { em: string[] }).em.includes(third)),
    "nothing sent about the third visitor",
  );
  await openTab(admin, "Lease Aanvragen");
  detail = await openLead(admin, people[0]!.companyName);
  await detail
    .getByTestId("lead-conversions")
    .locator('[data-platform="meta"] li')
    .filter({ hasText: "Getekend" })
    .filter({ hasText: "Verzonden" })
    .waitFor();
  assertEqual(purchases().length, 1, "the contract's event sent once");

  // The worker's stack is shared: Meta off again, and no pixel id (site-settings.e2e.ts starts from none).
  const off = await adminApi(admin, "PUT", "/api/admin/conversion-settings", { meta: { enabled: false } });
  assertEqual(off.status, 200, "Meta's conversions switched off");
  await saveSettings(admin, { facebookPixelId: "" });
});
