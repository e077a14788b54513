import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  InternalTrackBatchResult,
  TRACK_BATCH_PATH,
  type Analytics,
  type CampaignReport,
  type InternalTrackHit,
  type LeadAttribution,
  type LeaseRequest,
} from "@lease/contracts";
import { INTERNAL_TOKEN_HEADER } from "@lease/platform";
import { waitFor } from "@lease/platform/testing";
import { startFullStack, type FullStack } from "./stack";

// Anonymous traffic against the campaigns, through the gateway as the public internet sends it:
// thousands of visits from 35 address blocks (100 each, every one a new session with another
// user agent / referrer / click id, with source and medium values already in use) spend the day's
// visit profiles. Then an established campaign's real visits still count under its name and a
// quote request from one gets its real Herkomst; a brand-new campaign's first visitor, whose value
// the breakdowns cannot take yet, sends a quote request that keeps its campaign exactly, and once
// the campaign is stored by name (a second address block brings it) the campaign report counts it.

const DAY_MS = 24 * 3600_000;
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1";
const ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";
// 24 user agents that read as 24 different browser and system pairs.
const ATTACK_AGENTS = [
  "Windows NT 10.0; Win64; x64",
  "Macintosh; Intel Mac OS X 14_2",
  "X11; Linux x86_64",
  "X11; CrOS x86_64 15633.0",
].flatMap((system) =>
  ["Edg/120.0", "OPR/105.0", "Firefox/121.0", "Chrome/120.0", "SamsungBrowser/23.0", "Safari/605.1"].map(
    (browser) => `Mozilla/5.0 (${system}) AppleWebKit/537.36 (KHTML, like Gecko) ${browser}`,
  ),
);
const LENTE = "Lente 2027 – Zakelijk";

/** Tracking records visits at this time; moved back to visit "yesterday". */
const clock = { offset: 0, now: () => Date.now() - clock.offset };

let stack: FullStack;
let cookie: string;
let seq = 0;
const session = () => `session-atk${++seq}x${Math.random().toString(36).slice(2, 8)}-${Date.now()}`;

beforeAll(async () => {
  stack = await startFullStack(
    {
      LEAD_RATE_LIMIT: "100",
      FLUSH_INTERVAL_MS: "100",
      TRUSTED_PROXIES: "127.0.0.1",
      SKETCH_COMPACT_INTERVAL_MS: "200",
    },
    { trackingClock: clock },
  );
  cookie = await stack.adminCookie();
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

interface Visit {
  sessionId: string;
  page: string;
  referrer?: string;
  ip: string;
  userAgent: string;
}

async function visit(v: Visit): Promise<void> {
  const res = await fetch(`${stack.gateway.url}/api/track/visit`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: stack.origin,
      "user-agent": v.userAgent,
      "x-forwarded-for": v.ip,
    },
    body: JSON.stringify({ sessionId: v.sessionId, page: v.page, referrer: v.referrer ?? "" }),
  });
  expect(res.status).toBe(204);
}

/**
 * A flood as the gateway hands it to tracking: its beacons of a burst in batches of 100, each hit
 * with the visitor's address and user agent (a few seconds for thousands, where one request per
 * beacon takes a minute on a loaded host; the gateway's own part is tests/system/beacon-batching).
 */
async function flood(list: Visit[]): Promise<void> {
  const batches = Array.from({ length: Math.ceil(list.length / 100) }, (_, i) =>
    list.slice(i * 100, i * 100 + 100),
  );
  // Four batches in flight, as several gateway replicas would send them.
  for (let i = 0; i < batches.length; i += 4) await Promise.all(batches.slice(i, i + 4).map(batch));
}

async function batch(list: Visit[]): Promise<void> {
  const hits = list.map((v): InternalTrackHit => ({
    kind: "visit",
    body: JSON.stringify({ sessionId: v.sessionId, page: v.page, referrer: v.referrer ?? "" }),
    ip: v.ip,
    userAgent: v.userAgent,
  }));
  const res = await fetch(`${stack.services.tracking.url}${TRACK_BATCH_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", [INTERNAL_TOKEN_HEADER]: stack.env.INTERNAL_TOKEN! },
    body: JSON.stringify({ hits }),
  });
  const { results } = InternalTrackBatchResult.parse(await res.json());
  expect(new Set(results.map((r) => r.status))).toEqual(new Set([204]));
}

/** Real visitors' beacons, through the gateway. */
const visits = (list: Visit[]) => Promise.all(list.map(visit));

async function settle() {
  const streamKey = `${stack.env.REDIS_PREFIX}:tracking:stream`;
  await waitFor(async () => (await stack.redis.xlen(streamKey)) === 0, 30_000, "page views written");
}

async function admin<T>(path: string): Promise<T> {
  const res = await fetch(`${stack.gateway.url}${path}`, { headers: { cookie } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T;
}

async function quote(email: string, sessionId: string): Promise<string> {
  const res = await fetch(`${stack.gateway.url}/api/lease-requests`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: stack.origin, "user-agent": IPHONE },
    body: JSON.stringify({
      carUrl: "https://www.autoscout24.nl/aanbod/skoda-enyaq",
      contactNumber: "06 12345678",
      email,
      sessionId,
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const attributionOf = (id: string) =>
  waitFor(
    async () => (await admin<LeaseRequest>(`/api/admin/lease-requests/${id}`)).attribution,
    30_000,
    "the lead's Herkomst",
  ) as Promise<LeadAttribution>;

const today = () =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(new Date(Date.now()));
const analyticsToday = () => admin<Analytics>(`/api/admin/analytics?from=${today()}&to=${today()}`);
const reportToday = () => admin<CampaignReport>(`/api/admin/campaign-report?from=${today()}&to=${today()}`);
const campaignOf = <R extends { source: string; medium: string; campaign: string }>(
  rows: R[],
  campaign: string,
) => rows.find((r) => r.source === "google" && r.medium === "cpc" && r.campaign === campaign);

/**
 * The review's attack: 35 address blocks, 100 visits each, every one a new session. Blocks pair up
 * to get their made-up referrers stored by name (two blocks sent them), and each visit of a block
 * is another combination of referrer, user agent and click id, with the source and medium of the
 * running campaign; a few made-up campaigns use up the day's first-sight allowance too.
 */
function attack(): Visit[] {
  const list: Visit[] = [];
  for (let b = 0; b < 35; b++) {
    const ip = (i: number) => `198.18.${b}.${(i % 250) + 1}`;
    const referrer = (k: number) => `https://r${b >> 1}-${k}.example/`;
    for (let k = 0; k < 5; k++)
      list.push({
        sessionId: session(),
        page: `/?utm_source=google&utm_medium=cpc&utm_campaign=actie-${b}-${k}`,
        ip: ip(k),
        userAgent: ATTACK_AGENTS[k]!,
      });
    for (let i = 0; i < 95; i++)
      list.push({
        sessionId: session(),
        page: `/financiele-lease?utm_source=google&utm_medium=cpc${i >= 48 ? `&gclid=G${b}x${i}` : ""}`,
        referrer: referrer(i % 4),
        ip: ip(i + 5),
        // The two blocks of a pair send the same referrers with other user agents.
        userAgent: ATTACK_AGENTS[(Math.floor(i / 4) % 12) + 12 * (b & 1)]!,
      });
  }
  // Interleaved, as a flood from many places arrives: each pair's second block follows its first.
  return list.sort((x, y) => Number(x.ip.split(".")[3]) - Number(y.ip.split(".")[3]));
}

describe("real campaigns and their leads under a flood of anonymous visits", () => {
  it("keep their names and their leads' Herkomst once the day's visit profiles are spent", async () => {
    // Yesterday the campaigns najaar and winter had their visitors.
    clock.offset = DAY_MS;
    const najaarPage = "/financiele-lease?utm_source=google&utm_medium=cpc&utm_campaign=najaar&gclid=abc";
    await visits([
      {
        sessionId: session(),
        page: najaarPage,
        referrer: "https://www.google.com/",
        ip: "145.53.10.5",
        userAgent: CHROME,
      },
      {
        sessionId: session(),
        page: "/?utm_source=google&utm_medium=cpc&utm_campaign=winter",
        ip: "145.53.11.5",
        userAgent: IPHONE,
      },
    ]);
    await settle();
    clock.offset = 0;

    await flood(attack());
    await settle();
    // The premise: today's new visit profiles are all spent.
    const spent = await stack.redis.scard(`${stack.env.REDIS_PREFIX}:tracking:values:profiles:${today()}`);
    expect(spent).toBe(3000);

    // Real visitors of the running campaigns: one exactly as a visitor of yesterday, one on a phone
    // (a combination new today), one of winter on another phone.
    const phone = session();
    await visits([
      {
        sessionId: session(),
        page: najaarPage,
        referrer: "https://www.google.com/",
        ip: "145.53.10.77",
        userAgent: CHROME,
      },
      { sessionId: phone, page: najaarPage, ip: "145.53.12.9", userAgent: IPHONE },
      {
        sessionId: session(),
        page: "/?utm_source=google&utm_medium=cpc&utm_campaign=winter",
        ip: "145.53.13.9",
        userAgent: ANDROID,
      },
    ]);
    await settle();
    const lead = await quote("najaar-na-de-flood@bedrijf.nl", phone);
    expect(await attributionOf(lead)).toMatchObject({
      channel: "Paid Search",
      source: "google",
      medium: "cpc",
      campaign: "najaar",
      paidClick: true,
      landingPage: "/financiele-lease",
    });
    const analytics = await analyticsToday();
    expect(campaignOf(analytics.campaigns, "najaar")).toMatchObject({ visitors: 2, quotes: 1 });
    expect(campaignOf(analytics.campaigns, "winter")).toMatchObject({ visitors: 1 });
    await waitFor(
      async () => campaignOf((await reportToday()).rows, "najaar")?.leads === 1,
      10_000,
      "najaar's lead in the report",
    );
  }, 120_000);

  it("keep a new campaign's first lead exactly, and count it in the report once the campaign is stored by name", async () => {
    // The day's first-sight allowance of new campaigns went to the flood above: the first visitor
    // of a new campaign is "(overig)" in the breakdowns.
    const first = session();
    const page =
      "/zakelijke-lease?utm_source=google&utm_medium=cpc&utm_campaign=Lente%202027%20%E2%80%93%20Zakelijk" +
      "&utm_term=lease%20auto%20zakelijk&utm_content=banner-a&gclid=L1";
    await visit({
      sessionId: first,
      page,
      referrer: "https://www.google.com/",
      ip: "145.53.14.9",
      userAgent: ANDROID,
    });
    await settle();
    const lead = await quote("lente-eerste@bedrijf.nl", first);
    // A quote request is proof of a real visitor: its lead keeps what its visit sent.
    expect(await attributionOf(lead)).toMatchObject({
      source: "google",
      medium: "cpc",
      campaign: LENTE,
      term: "lease auto zakelijk",
      content: "banner-a",
      referrerHost: "google.com",
      landingPage: "/zakelijke-lease",
    });
    const before = await reportToday();
    expect(campaignOf(before.rows, LENTE)).toBeUndefined();
    expect(campaignOf(before.rows, "(overig)")?.leads).toBeGreaterThanOrEqual(1);
    const otherBefore = campaignOf(before.rows, "(overig)")!.leads;

    // A visitor from another address block: now the campaign is stored by name, and the report
    // counts the lead of its first visitor under it, no longer under "(overig)".
    await visit({ sessionId: session(), page, ip: "145.53.15.9", userAgent: IPHONE });
    await settle();
    const after = await waitFor(
      async () => {
        const report = await reportToday();
        return campaignOf(report.rows, LENTE)?.leads === 1 && report;
      },
      15_000,
      "the first lead under its campaign",
    );
    expect(campaignOf(after.rows, "(overig)")?.leads ?? 0).toBe(otherBefore - 1);
    expect(after.totals.leads).toBe(before.totals.leads);
    // The lead vouched for its campaign: its next visitors count under its name, budget or not.
    await visit({ sessionId: session(), page, ip: "145.53.16.9", userAgent: CHROME });
    await settle();
    expect(campaignOf((await analyticsToday()).campaigns, LENTE)?.visitors).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
