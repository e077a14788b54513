import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Analytics, LeadAttribution, LeaseRequest, LeaseRequestListResponse } from "@lease/contracts";
import pg from "pg";
import { createLogger, createQueueClient, createRedis, type QueueClient } from "@lease/platform";
import { waitFor } from "@lease/platform/testing";
import { startFullStack, type FullStack } from "./stack";

// Conversions and lead attribution through the whole backend, as a browser sends them: visits to
// the gateway's beacon route, forms with the visitor session id, the admin API reading back the
// lead's attribution, the lead list filtered by channel and campaign, and today's analytics with
// the conversions counted once per lead.

const DAY_MS = 24 * 3600_000;
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/** Tracking records visits at this time; moved back to visit "days ago". */
const clock = { offset: 0, now: () => Date.now() - clock.offset };

let stack: FullStack;
let cookie: string;
let queue: QueueClient;
let bull: ReturnType<typeof createRedis>;
let sql: pg.Pool;
let seq = 0;
const session = () => `session-attr${++seq}x${Math.random().toString(36).slice(2, 8)}-${Date.now()}`;

beforeAll(async () => {
  stack = await startFullStack(
    { LEAD_RATE_LIMIT: "100", FLUSH_INTERVAL_MS: "100" },
    { trackingClock: clock },
  );
  cookie = await stack.adminCookie();
  bull = createRedis(stack.env.REDIS_URL!, "bullmq", createLogger("test", "silent"));
  queue = createQueueClient(bull, stack.env.REDIS_PREFIX!);
  sql = new pg.Pool({ connectionString: stack.db.url, max: 2 });
}, 120_000);

afterAll(async () => {
  await sql?.end();
  await queue?.close();
  bull?.disconnect();
  await stack?.stop();
});

const headers = () => ({ "content-type": "application/json", origin: stack.origin, "user-agent": CHROME });

async function visit(sessionId: string, page: string, referrer = "") {
  const res = await fetch(`${stack.gateway.url}/api/track/visit`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({ sessionId, page, referrer }),
  });
  expect(res.status).toBe(204);
}

/** Waits until the visit stream is empty: every page view so far is in Postgres. */
async function settle() {
  const streamKey = `${stack.env.REDIS_PREFIX}:tracking:stream`;
  await waitFor(async () => (await stack.redis.xlen(streamKey)) === 0, 30_000, "page views written");
}

async function send(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${stack.gateway.url}${path}`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const quote = (email: string, sessionId?: string) =>
  send("/api/lease-requests", {
    carUrl: "https://www.autoscout24.nl/aanbod/skoda-enyaq",
    contactNumber: "06 12345678",
    email,
    ...(sessionId ? { sessionId } : {}),
  });

async function admin<T>(path: string, status = 200): Promise<T> {
  const res = await fetch(`${stack.gateway.url}${path}`, { headers: { cookie } });
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const today = () =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(new Date(Date.now()));
const analyticsToday = () => admin<Analytics>(`/api/admin/analytics?from=${today()}&to=${today()}`);
const conversionsOf = async (leadId: string) =>
  Number(
    (await sql.query("SELECT count(*) AS n FROM tracking.conversions WHERE lead_id = $1", [leadId])).rows[0]
      .n,
  );

/** The lead once tracking's attribution is stored with it. */
const attributed = (id: string, what: string) =>
  waitFor(
    async () => {
      const found = await admin<LeaseRequest>(`/api/admin/lease-requests/${id}`);
      return found.attribution && found;
    },
    30_000,
    what,
  );

let campaignLead: string;
let contactId: string;
let anonymousLead: string;

describe("conversions and lead attribution", () => {
  it("attributes a quote request to the campaign visit that sent it (the issue's example)", async () => {
    const s = session();
    await visit(
      s,
      "/financiele-lease?utm_source=google&utm_medium=cpc&utm_campaign=najaar&gclid=X",
      "https://www.google.com/",
    );
    await visit(s, "/over-ons");
    await visit(s, "/");
    await settle();
    campaignLead = await quote("najaar@bedrijf.nl", s);
    const lead = await attributed(campaignLead, "the lead's attribution");
    expect(lead.attribution).toEqual({
      channel: "Paid Search",
      source: "google",
      medium: "cpc",
      campaign: "najaar",
      term: "",
      content: "",
      paidClick: true,
      referrerHost: "google.com",
      landingPage: "/financiele-lease",
      firstSeenAt: expect.any(String),
      pagesBeforeConversion: 3,
      pages: ["/financiele-lease", "/over-ons", "/"],
    } satisfies LeadAttribution);
    expect(Date.now() - Date.parse(lead.attribution!.firstSeenAt)).toBeLessThan(120_000);
    expect(lead.attributionStatus).toBe("found");
    // The paid-click id itself is stored nowhere.
    const stored = await sql.query("SELECT attribution::text AS a FROM leads.lease_requests WHERE id = $1", [
      campaignLead,
    ]);
    expect(stored.rows[0].a).not.toContain("gclid");
  });

  it("attributes a contact message to a session that arrived days earlier, by its first visit", async () => {
    const s = session();
    clock.offset = 3 * DAY_MS;
    await visit(s, "/zakelijke-lease?utm_source=nieuwsbrief&utm_medium=email&utm_campaign=winter");
    await visit(s, "/operationele-lease");
    await settle();
    clock.offset = 0;
    await visit(s, "/", "https://www.bing.com/");
    await settle();
    contactId = await send("/api/contact", {
      name: "Piet",
      email: "piet@bedrijf.nl",
      message: "Bel mij eens terug over een offerte",
      sessionId: s,
    });
    const attribution = await waitFor(
      async () =>
        (
          await sql.query<{ attribution: LeadAttribution | null }>(
            "SELECT attribution FROM leads.contact_messages WHERE id = $1",
            [contactId],
          )
        ).rows[0]?.attribution,
      30_000,
      "the contact message's attribution",
    );
    expect(attribution).toMatchObject({
      channel: "Email",
      source: "nieuwsbrief",
      medium: "email",
      campaign: "winter",
      paidClick: false,
      referrerHost: "",
      landingPage: "/zakelijke-lease",
      pagesBeforeConversion: 3,
      pages: ["/zakelijke-lease", "/operationele-lease", "/"],
    });
    const age = Date.now() - Date.parse(attribution.firstSeenAt);
    expect(age).toBeGreaterThan(3 * DAY_MS - 120_000);
    expect(age).toBeLessThan(3 * DAY_MS + 120_000);
  });

  it("keeps the first 50 pages of a long visit and counts them all", async () => {
    const s = session();
    const paths = ["/", "/zakelijke-lease", "/financiele-lease", "/operationele-lease", "/over-ons"];
    for (let i = 0; i < 55; i++) await visit(s, paths[i % paths.length]!);
    await settle();
    const id = await quote("lang@bedrijf.nl", s);
    const lead = await attributed(id, "the long visit's attribution");
    expect(lead.attribution).toMatchObject({
      channel: "Direct",
      landingPage: "/",
      pagesBeforeConversion: 55,
    });
    expect(lead.attribution!.pages).toEqual(Array.from({ length: 50 }, (_, i) => paths[i % paths.length]));
  });

  it("counts a form without a session id (no analytics consent) as an unattributed conversion", async () => {
    anonymousLead = await quote("anoniem@bedrijf.nl");
    const row = await waitFor(
      async () =>
        (
          await sql.query("SELECT profile_id, kind FROM tracking.conversions WHERE lead_id = $1", [
            anonymousLead,
          ])
        ).rows[0],
      30_000,
      "the conversion recorded",
    );
    expect(row).toEqual({ profile_id: null, kind: "quote" });
    expect(await admin<LeaseRequest>(`/api/admin/lease-requests/${anonymousLead}`)).toMatchObject({
      attribution: null,
      attributionStatus: "no_consent",
    });
  });

  it("shows today's conversions in the analytics: totals, campaign, channel and landing page", async () => {
    const data = await waitFor(
      async () => {
        const a = await analyticsToday();
        return a.totals.conversions === 4 && a;
      },
      30_000,
      "four conversions today",
    );
    expect(data.totals).toMatchObject({ quotes: 3, contacts: 1, conversions: 4 });
    expect(data.totals.conversionRate).toBeCloseTo((4 / data.totals.visitors) * 100, 0);
    const najaar = data.campaigns.find((c) => c.campaign === "najaar");
    expect(najaar).toMatchObject({
      source: "google",
      medium: "cpc",
      visitors: 1,
      quotes: 1,
      contacts: 0,
      conversions: 1,
      conversionRate: 100,
    });
    // The contact counts today for the campaign of its first visit, three days ago.
    expect(data.campaigns.find((c) => c.campaign === "winter")).toMatchObject({ contacts: 1, visitors: 0 });
    expect(data.channels.find((c) => c.value === "Paid Search")).toMatchObject({ quotes: 1 });
    expect(data.channels.find((c) => c.value === "Email")).toMatchObject({ contacts: 1 });
    expect(data.landingPages.find((p) => p.value === "/financiele-lease")).toMatchObject({ quotes: 1 });
  });

  it("records a conversion once per lead, whatever the job is delivered again", async () => {
    const before = await analyticsToday();
    await queue.enqueue(
      "tracking.conversion",
      { source: "lease_request", sourceId: anonymousLead, sessionId: null, at: new Date().toISOString() },
      { jobId: `again-${anonymousLead}` },
    );
    await waitFor(
      async () => (await queue.raw("tracking").getJobState(`again-${anonymousLead}`)) === "completed",
      30_000,
      "the repeated job done",
    );
    expect(await conversionsOf(anonymousLead)).toBe(1);
    // Both services count their job attempts on their metrics port, as the mailer does.
    const attempts = async (url: string, queueName: string, job: string) =>
      Number(
        new RegExp(
          `^bullmq_job_attempts_total\\{queue="${queueName}",job="${job}",outcome="completed"[^}]*\\} (\\d+)`,
          "m",
        ).exec(await (await fetch(url)).text())?.[1] ?? 0,
      );
    expect(
      await attempts(stack.services.tracking.metricsUrl, "tracking", "tracking.conversion"),
    ).toBeGreaterThanOrEqual(4);
    expect(
      await attempts(stack.services.leads.metricsUrl, "leads", "leads.attribution"),
    ).toBeGreaterThanOrEqual(2);
    const after = await analyticsToday();
    expect(after.totals).toMatchObject({ quotes: before.totals.quotes, contacts: before.totals.contacts });
  });

  it("filters the lead list and its CSV by channel and campaign", async () => {
    const list = (query: string) =>
      admin<LeaseRequestListResponse>(`/api/admin/lease-requests?${query}`).then((r) =>
        r.items.map((i) => i.id),
      );
    expect(await list("campaign=najaar")).toEqual([campaignLead]);
    expect(await list("channel=Paid%20Search")).toEqual([campaignLead]);
    expect(await list("channel=Paid%20Search&campaign=winter")).toEqual([]);
    expect(await list("channel=Email")).toEqual([]);
    expect(await list("")).toEqual(expect.arrayContaining([campaignLead, anonymousLead]));
    const bad = await fetch(`${stack.gateway.url}/api/admin/lease-requests?channel=Radio`, {
      headers: { cookie },
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Kies een kanaal");
    const csv = await fetch(`${stack.gateway.url}/api/admin/lease-requests/export.csv?campaign=najaar`, {
      headers: { cookie },
    });
    const [header, row, rest] = (await csv.text()).split("\r\n");
    expect(header).toContain('"Kanaal";"Bron";"Medium";"Campagne"');
    expect(row).toContain(
      '"Betaald zoeken";"google";"cpc";"najaar";"";"";"ja";"google.com";"/financiele-lease";',
    );
    expect(row).toContain('"/financiele-lease > /over-ons > /"');
    expect(rest).toBe("");
  });

  it("keeps the campaign of a landing page where consent was given, without counting the page twice", async () => {
    const before = await analyticsToday();
    const s = session();
    const landing = "/financiele-lease?utm_source=google&utm_medium=cpc&utm_campaign=toestemming&gclid=Y";
    const beacon = (body: Record<string, unknown>) =>
      fetch(`${stack.gateway.url}/api/track/visit`, {
        method: "POST",
        headers: headers(),
        body: JSON.stringify(body),
      });
    // Before the choice: counted without an id. Then "Accepteren": the page again, under the new id.
    expect((await beacon({ page: landing, referrer: "https://www.google.com/" })).status).toBe(204);
    expect(
      (await beacon({ sessionId: s, page: landing, referrer: "https://www.google.com/", consented: true }))
        .status,
    ).toBe(204);
    await visit(s, "/over-ons");
    await settle();
    const id = await quote("toestemming@bedrijf.nl", s);
    const lead = await attributed(id, "the consenting visit's attribution");
    expect(lead.attribution).toMatchObject({
      channel: "Paid Search",
      source: "google",
      campaign: "toestemming",
      paidClick: true,
      referrerHost: "google.com",
      landingPage: "/financiele-lease",
      pagesBeforeConversion: 2,
      pages: ["/financiele-lease", "/over-ons"],
    });
    const after = await waitFor(
      async () => {
        const a = await analyticsToday();
        return a.campaigns.find((c) => c.campaign === "toestemming")?.quotes === 1 && a;
      },
      30_000,
      "the conversion counted",
    );
    // Two page views (the landing page once, without the id, and /over-ons), not three.
    expect(after.totals.pageViews - before.totals.pageViews).toBe(2);
    expect(after.campaigns.find((c) => c.campaign === "toestemming")).toMatchObject({ quotes: 1 });
    // The mark needs the id it is sent with.
    const bad = await beacon({ page: landing, consented: true });
    expect(bad.status).toBe(400);
  });

  it("keeps a lead with a session id pending until tracking answers, and says when it found no visit", async () => {
    const id = await quote("nooitgezien@bedrijf.nl", session());
    const lead = () => admin<LeaseRequest>(`/api/admin/lease-requests/${id}`);
    expect(await lead()).toMatchObject({ attribution: null, attributionStatus: "pending" });
    // Tracking answers as soon as the visit stream is written up to the form (it is empty here):
    // there is no page view of that session, for good.
    await waitFor(async () => (await lead()).attributionStatus === "not_found", 15_000, "not_found");
    expect((await lead()).attribution).toBeNull();
  });
});

describe("what an anonymous visitor can write into the analytics", () => {
  it("stores at most 5 of 100 made-up values from one address, and a campaign of before keeps its name", async () => {
    // The campaign has had a visitor today (on its own, too: the test needs no other test).
    await visit(session(), "/?utm_source=google&utm_medium=cpc&utm_campaign=najaar&utm_content=banner");
    // The review's reproduction: 100 beacons with made-up campaigns and contents from one address.
    for (let i = 0; i < 100; i += 25)
      await Promise.all(
        Array.from({ length: 25 }, (_, j) =>
          visit(
            session(),
            `/?utm_source=x&utm_campaign=%3DHYPERLINK(%22e%22%2C${i + j})&utm_content=junk${i + j}`,
          ),
        ),
      );
    // Then a real visitor of this morning's campaign, who asks for a quote.
    const s = session();
    await visit(
      s,
      "/financiele-lease?utm_source=google&utm_medium=cpc&utm_campaign=najaar&utm_content=banner",
    );
    await settle();
    const id = await quote("na-de-rommel@bedrijf.nl", s);
    const lead = await waitFor(
      async () => (await admin<LeaseRequest>(`/api/admin/lease-requests/${id}`)).attribution,
      30_000,
      "the real visit's attribution",
    );
    expect(lead).toMatchObject({ source: "google", medium: "cpc", campaign: "najaar" });
    const stored = async (column: string, pattern: string) =>
      Number(
        (
          await sql.query(
            `SELECT count(DISTINCT ${column}) AS n FROM tracking.profiles WHERE ${column} LIKE $1`,
            [pattern],
          )
        ).rows[0].n,
      );
    expect(await stored("utm_campaign", "=HYPERLINK%")).toBeLessThanOrEqual(5);
    expect(await stored("utm_content", "junk%")).toBeLessThanOrEqual(5);
    expect(
      (await analyticsToday()).campaigns.filter((c) => c.campaign.startsWith("=")).length,
    ).toBeLessThanOrEqual(5);
  });
});
