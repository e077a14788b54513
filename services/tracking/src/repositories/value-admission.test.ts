import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Redis } from "ioredis";
import type { Analytics } from "@lease/contracts";
import { keyspace } from "@lease/platform";
import { COMBINATION_BIT, DEFAULT_ADMISSION, type VisitValues } from "../domain/admission";
import { runRetention } from "../domain/retention";
import { ManualClock, startHarness, sessionId, type Harness } from "../testing";
import { insertBatch, referrerHost, writerDeps, type TrackEvent } from "./page-views";
import { Partitions } from "./partitions";
import { SharedValueGate } from "./value-admission";

// What anonymous visitors can write into the staff's analytics: made-up UTM
// values and referrers neither crowd out a real campaign nor grow the tables without bound, the
// bounds hold across replicas, and what no kept day uses is pruned.
const DAY_MS = 86_400_000;
let a: Harness;
let b: Harness;
let db: pg.Pool;
beforeAll(async () => {
  a = await startHarness({}, new ManualClock(Date.parse("2026-11-18T10:00:00Z")));
  // A second replica: same Postgres, same Redis prefix, its own stream writer.
  b = await startHarness({}, a.clock, { env: a.env, db: a.db });
  db = new pg.Pool({ connectionString: a.db.url, max: 2 });
});
afterAll(async () => {
  await db?.end();
  await b?.close();
  await a?.close();
});

/** Visits of new sessions, every other one through the second replica; waits until written. */
async function visits(list: { ip: string; page: string; referrer?: string }[]): Promise<void> {
  for (let i = 0; i < list.length; i += 20)
    await Promise.all(
      list
        .slice(i, i + 20)
        .map(({ ip, page, referrer }, j) =>
          ((i + j) % 2 ? b : a).visit(
            { sessionId: sessionId(), page, ...(referrer ? { referrer } : {}) },
            { "x-forwarded-for": ip },
          ),
        ),
    );
  await a.settle();
}
const day = () => new Date(a.clock.now()).toISOString().slice(0, 10);
const analytics = () => a.get<Analytics>(`/api/admin/analytics?from=${day()}&to=${day()}`);
const count = async (sql: string) => Number((await db.query<{ n: string }>(sql)).rows[0]!.n);

describe("made-up UTM values and referrers", () => {
  it("store 5 of 120 junk campaigns from one block, through either replica, and keep a real one by name", async () => {
    await visits(
      Array.from({ length: 120 }, (_, i) => ({
        ip: `203.0.113.${i % 250}`,
        page: `/?utm_source=spam${i}&utm_campaign=%3DHYPERLINK(${i})&utm_content=c${i}&utm_term=t${i}`,
      })),
    );
    // The real campaign afterwards, from three other blocks.
    await visits(
      ["198.51.100.7", "192.0.2.9", "100.64.1.2"].map((ip) => ({
        ip,
        page: "/financiele-lease?utm_source=google&utm_medium=cpc&utm_campaign=voorjaar",
      })),
    );
    for (const column of ["utm_source", "utm_campaign", "utm_content", "utm_term"])
      expect(
        await count(`SELECT count(DISTINCT ${column}) AS n FROM tracking.profiles WHERE ${column} NOT IN
                     ('', '(overig)', 'google', 'voorjaar')`),
        column,
      ).toBe(5);
    const report = await analytics();
    expect(report.campaigns.find((c) => c.campaign === "voorjaar")).toMatchObject({
      source: "google",
      medium: "cpc",
      visitors: 3,
    });
    expect(report.campaigns.find((c) => c.campaign === "(overig)")?.visitors).toBe(115);
  });

  it("bound what many blocks can add, and never displace a value of the days before", async () => {
    a.clock.advance(DAY_MS);
    // 150 blocks, each its own made-up campaign and referrer: at most 50 of each at first sight.
    await visits(
      Array.from({ length: 150 }, (_, i) => ({
        ip: `10.${i}.0.1`,
        page: `/?utm_source=s${i}&utm_campaign=k${i}`,
        referrer: `https://r${i}-${Math.random().toString(36).slice(2)}.example/`,
      })),
    );
    const hosts = await count(
      `SELECT count(DISTINCT referrer_host) AS n FROM tracking.profiles WHERE referrer_host LIKE '%.example'`,
    );
    expect(hosts).toBe(DEFAULT_ADMISSION.freePerDay);
    // A new campaign now needs two blocks: its first visit is "(overig)", the next ones are its own.
    await visits(
      ["198.51.100.8", "192.0.2.10", "100.64.2.3"].map((ip) => ({
        ip,
        page: "/?utm_source=meta&utm_medium=paid&utm_campaign=zomer",
      })),
    );
    // Yesterday's campaign keeps its name from a single block.
    await visits([{ ip: "198.51.100.9", page: "/?utm_source=google&utm_medium=cpc&utm_campaign=voorjaar" }]);
    const report = await analytics();
    expect(report.campaigns.find((c) => c.campaign === "zomer")?.visitors).toBe(2);
    expect(report.campaigns.find((c) => c.campaign === "voorjaar")?.visitors).toBe(1);
    // What 150 referrers from 150 blocks added: bounded by the day's first-sight values.
    expect(
      await count(`SELECT count(*) AS n FROM tracking.profiles WHERE referrer_host LIKE '%.example'`),
    ).toBe(DEFAULT_ADMISSION.freePerDay);
  });

  it("store at most 5 of 150 referrers from one block", async () => {
    a.clock.advance(DAY_MS);
    const before = await count(`SELECT count(*) AS n FROM tracking.dim_values`);
    const dimsBefore = await count(`SELECT count(*) AS n FROM tracking.profile_dims`);
    await visits(
      Array.from({ length: 150 }, (_, i) => ({
        ip: `203.0.113.${i % 250}`,
        page: "/",
        referrer: `https://x${i}-${Math.random().toString(36).slice(2)}.example/`,
      })),
    );
    expect(
      await count(
        `SELECT count(DISTINCT referrer_host) AS n FROM tracking.profiles WHERE referrer_host LIKE 'x%'`,
      ),
    ).toBe(DEFAULT_ADMISSION.freePerBlock);
    expect(await count(`SELECT count(*) AS n FROM tracking.dim_values`)).toBeLessThanOrEqual(before + 6);
    expect(await count(`SELECT count(*) AS n FROM tracking.profile_dims`)).toBeLessThanOrEqual(
      dimsBefore + 6 * 7,
    );
  });

  it("are established again from Postgres when Redis lost them", async () => {
    const redis = new Redis(a.env.REDIS_URL!);
    try {
      // An empty Redis: only what Postgres says was stored by name passes without an address block.
      const gate = new SharedValueGate(redis, keyspace(`${a.env.REDIS_PREFIX}-seed`));
      const visit = (campaign: string): VisitValues => ({
        day: day(),
        tag: "",
        rest: "",
        values: { source: "google", medium: "cpc", campaign, term: "", content: "", referrer: "" },
      });
      expect(await gate.check([visit("voorjaar")])).toEqual([0b111]);
      expect(await gate.seed(db, day())).toBeGreaterThanOrEqual(3);
      expect(await gate.check([visit("voorjaar"), visit("nooit-gezien")])).toEqual([0, 0b100]);
    } finally {
      redis.disconnect();
    }
  });

  it("bound the combinations of a day: beyond, a new one keeps only its bounded columns", async () => {
    const redis = new Redis(a.env.REDIS_URL!);
    try {
      const gate = new SharedValueGate(redis, keyspace(`${a.env.REDIS_PREFIX}-combinations`), {
        ...DEFAULT_ADMISSION,
        profilesPerDay: 10,
      });
      const visit = (i: number): VisitValues => ({
        day: "2026-11-21",
        tag: `block-${i}`,
        rest: "Other\u0000false\u0000NL\u0000desktop\u0000Chrome\u0000Windows",
        values: { source: `s${i}`, medium: "", campaign: "", term: "", content: "", referrer: "" },
      });
      const answers = await gate.check(Array.from({ length: 15 }, (_, i) => visit(i)));
      expect(answers.slice(0, 10).every((bits) => bits === 0)).toBe(true);
      expect(answers.slice(10).every((bits) => (bits & COMBINATION_BIT) !== 0)).toBe(true);
      // A combination already seen that day stays itself.
      expect(await gate.check([visit(3)])).toEqual([0]);
      // One block brings at most its share of the day's new combinations.
      const perBlock = new SharedValueGate(redis, keyspace(`${a.env.REDIS_PREFIX}-per-block`), {
        ...DEFAULT_ADMISSION,
        profilesPerBlock: 3,
      });
      const fromOneBlock = await perBlock.check(
        ["NL", "BE", "DE", "FR", "GB"].map((country) => ({
          ...visit(0),
          rest: `Direct\u0000false\u0000${country}\u0000desktop\u0000Chrome\u0000Windows`,
        })),
      );
      expect(fromOneBlock).toEqual([0, 0, 0, COMBINATION_BIT, COMBINATION_BIT]);
    } finally {
      redis.disconnect();
    }
  });
});

describe("a day's visit profiles spent by anonymous traffic", () => {
  const REST = "Paid Search\u0000true\u0000NL\u0000desktop\u0000Chrome\u0000Windows";
  const visit = (
    day: string,
    tag: string,
    values: Partial<VisitValues["values"]>,
    rest = REST,
  ): VisitValues => ({
    day,
    tag,
    rest,
    values: { source: "", medium: "", campaign: "", term: "", content: "", referrer: "", ...values },
  });
  const najaar = { source: "google", medium: "cpc", campaign: "najaar" };
  // Bits of the answer: source 1, medium 2, campaign 4, term 8, content 16, referrer 32.
  const SOURCE_MEDIUM_CAMPAIGN = 0b111;

  it("take an established combination's place never, and keep an established campaign's name in a new one", async () => {
    const redis = new Redis(a.env.REDIS_URL!);
    try {
      const gate = new SharedValueGate(redis, keyspace(`${a.env.REDIS_PREFIX}-spent`), {
        ...DEFAULT_ADMISSION,
        profilesPerDay: 10,
      });
      // Yesterday the campaign had its visitors, and google.com its organic ones.
      expect(await gate.check([visit("2026-11-20", "real-1", najaar)])).toEqual([0]);
      expect(
        await gate.check([
          visit(
            "2026-11-20",
            "real-2",
            { referrer: "google.com" },
            "Organic Search\u0000false\u0000NL\u0000mobile\u0000Safari\u0000iOS",
          ),
        ]),
      ).toEqual([0]);
      // Today anonymous traffic from ten blocks, each a combination of its own, spends the day's profiles.
      const junk = await gate.check(
        Array.from({ length: 12 }, (_, i) =>
          visit(
            "2026-11-21",
            `attacker-${i}`,
            { source: "google", medium: "cpc" },
            `Paid Search\u0000true\u0000NL\u0000desktop\u0000Browser${i}\u0000Windows`,
          ),
        ),
      );
      expect(junk.filter((bits) => bits === 0)).toHaveLength(10);
      // Yesterday's combination is the campaign's visitor as it was: no budget needed.
      expect(await gate.check([visit("2026-11-21", "real-3", najaar)])).toEqual([0]);
      // A new combination of it (another device) gets the coarse profile, the campaign by name.
      const otherDevice = "Paid Search\u0000true\u0000BE\u0000mobile\u0000Safari\u0000iOS";
      expect(await gate.check([visit("2026-11-21", "real-4", najaar, otherDevice)])).toEqual([
        COMBINATION_BIT,
      ]);
      // Its keyword and ad content are no breakdown: in the coarse profile they are "(overig)".
      expect(
        await gate.check([
          visit("2026-11-21", "real-5", { ...najaar, term: "lease", content: "banner" }, otherDevice),
        ]),
      ).toEqual([COMBINATION_BIT | 0b11000]);
      // An organic visit from an established referrer keeps it (the referrer is its source).
      expect(
        await gate.check([visit("2026-11-21", "real-6", { referrer: "google.com" }, otherDevice)]),
      ).toEqual([COMBINATION_BIT]);
      // A campaign seen only today waits: its new combination is "(overig)" beyond the budget.
      expect(
        await gate.check([visit("2026-11-21", "real-7", { ...najaar, campaign: "lente" }, otherDevice)]),
      ).toEqual([COMBINATION_BIT | SOURCE_MEDIUM_CAMPAIGN]);
      // Until a lead vouches for it (a quote request is a real visitor): then it keeps its name too.
      await gate.vouchForCampaign("2026-11-21", "google", "cpc", "lente");
      expect(
        await gate.check([visit("2026-11-21", "real-8", { ...najaar, campaign: "lente" }, otherDevice)]),
      ).toEqual([COMBINATION_BIT]);
      // Thirty days later the campaign is no longer established.
      expect(
        await gate.check([
          visit(
            "2026-12-22",
            "real-9",
            najaar,
            "Direct\u0000false\u0000NL\u0000desktop\u0000Edge\u0000Windows",
          ),
        ]),
      ).toEqual([0]);
    } finally {
      redis.disconnect();
    }
  });

  it("come back established from Postgres: a running campaign keeps its name with no budget left", async () => {
    const redis = new Redis(a.env.REDIS_URL!);
    try {
      const gate = new SharedValueGate(redis, keyspace(`${a.env.REDIS_PREFIX}-seed-campaigns`), {
        ...DEFAULT_ADMISSION,
        profilesPerDay: 1,
      });
      // The day's one new profile goes to someone else.
      expect(
        await gate.check([visit(day(), "first", {}, "Direct\u0000false\u0000\u0000\u0000\u0000")]),
      ).toEqual([0]);
      const voorjaar = visit(day(), "", { source: "google", medium: "cpc", campaign: "voorjaar" });
      expect(await gate.check([voorjaar])).toEqual([COMBINATION_BIT | SOURCE_MEDIUM_CAMPAIGN]);
      await gate.seed(db, day());
      expect(await gate.check([voorjaar])).toEqual([COMBINATION_BIT]);
      expect(
        await gate.established(day(), [
          { field: "campaign", value: "voorjaar" },
          { field: "campaign", value: "nooit" },
        ]),
      ).toEqual([true, false]);
    } finally {
      redis.disconnect();
    }
  });
});

describe("referrer hosts", () => {
  it("are host names of http(s) referrers, never anything longer or stranger", () => {
    expect(referrerHost("https://www.Google.nl/search?q=x")).toBe("google.nl");
    expect(referrerHost("http://[2a02:a440::1]/")).toBe("[2a02:a440::1]");
    expect(referrerHost(`https://${"a".repeat(300)}.example/`)).toBe("");
    expect(referrerHost("android-app://com.google.android.gm/")).toBe("");
    expect(referrerHost("javascript:alert(1)")).toBe("");
    expect(referrerHost("https://voorbeeld.nl/", "www.voorbeeld.nl")).toBe("");
  });
});

describe("retention", () => {
  it("prunes the profiles and breakdown values that no kept day uses", async () => {
    const deps = writerDeps(db);
    const event = (at: string, session: string, page: string, referrer: string): TrackEvent => ({
      eventId: `${session}-${at}`,
      sessionId: session,
      isView: true,
      page,
      referrer,
      userAgent: null,
      country: "NL",
      city: null,
      at: new Date(at),
    });
    // An old day with a campaign of its own, and a profile both an old and a kept day use.
    await insertBatch(deps, [
      event(
        "2024-05-10T10:00:00Z",
        "old-1",
        "/?utm_source=oud&utm_campaign=verleden",
        "https://oud.example/",
      ),
      event("2024-05-10T10:00:00Z", "old-2", "/", "https://blijft.example/"),
      event("2026-11-17T10:00:00Z", "new-1", "/", "https://blijft.example/"),
    ]);
    const profile = (host: string) =>
      count(`SELECT count(*) AS n FROM tracking.profiles WHERE referrer_host = '${host}'`);
    expect(await profile("oud.example")).toBe(1);
    const values = () =>
      count(
        `SELECT count(*) AS n FROM tracking.dim_values WHERE value IN ('oud.example', 'oud') OR value LIKE '%verleden%'`,
      );
    expect(await values()).toBe(2);
    const report = await runRetention(db, new Partitions(db), a.clock, 26);
    expect(report.prunedProfiles).toBeGreaterThanOrEqual(1);
    expect(await profile("oud.example")).toBe(0);
    expect(await values()).toBe(0);
    expect(await profile("blijft.example")).toBe(1);
    expect(
      await count(`SELECT count(*) AS n FROM tracking.profile_dims pd
                   WHERE NOT EXISTS (SELECT 1 FROM tracking.profiles p WHERE p.id = pd.profile_id)
                      OR NOT EXISTS (SELECT 1 FROM tracking.dim_values v WHERE v.id = pd.value_id)`),
    ).toBe(0);
    // A writer that still remembers a pruned profile numbers it again instead of writing its old id.
    await insertBatch(deps, [
      event(
        "2026-11-17T11:00:00Z",
        "new-2",
        "/?utm_source=oud&utm_campaign=verleden",
        "https://oud.example/",
      ),
    ]);
    const visit = await db.query<{ host: string }>(
      `SELECT p.referrer_host AS host FROM tracking.visitors v JOIN tracking.profiles p ON p.id = v.profile_id
       WHERE v.session_key = tracking.key64('new-2')`,
    );
    expect(visit.rows).toEqual([{ host: "oud.example" }]);
  });
});
