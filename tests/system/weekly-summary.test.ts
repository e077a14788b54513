import pg from "pg";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQueueClient, type QueueClient, type RunningService } from "@lease/platform";
import { testAdmin, waitFor, type ReceivedMail } from "@lease/platform/testing";
import { startLeads } from "@lease/leads";
import { startMailer } from "@lease/mailer";
import { startTracking } from "@lease/tracking";
import { insertBatch, writerDeps } from "../../services/tracking/src/repositories/page-views";
import { ConversionRecorder } from "../../services/tracking/src/repositories/conversions";
import { leadStagesRepository } from "../../services/tracking/src/repositories/lead-stages";
import { pageView } from "../../services/tracking/src/testing";
import { postLead, staffState, startPipeline, tellStaff, type Pipeline } from "./mail-pipeline";

// The weekly summary e-mail, Monday 08:00 Amsterdam time: two leads replicas and two mailers run
// the week's job at the same instant (the job doubled), SendGrid refuses the first send, and each
// admin who chose the summary still gets exactly one e-mail with last week's figures; an admin who
// did not choose it, or is disabled, gets none. The clock stands at Monday 30 March 2026 08:00 CEST,
// so "last week" is week 13 (23–29 March, the week the clocks went forward).

const MONDAY_0800 = new Date("2026-03-30T06:00:00Z");
const clock = () => MONDAY_0800;
const ORIGIN = "https://lease.example.nl";

let p: Pipeline;
let leads2: RunningService;
let tracking: RunningService;
const mailers: RunningService[] = [];
let redis: Redis;
let queue: QueueClient;
let trackingDb: pg.Pool;

const alice = testAdmin("alice");
const bob = testAdmin("bob");
const carol = testAdmin("carol"); // did not choose the summary
const dave = testAdmin("dave"); // chose it, but is disabled

/** A lease request posted as a visitor does, then moved into week 13 with its owner and response. */
async function lead(
  n: number,
  row: { owner: string; created: string; firstResponse?: string; status: string; company?: string },
) {
  const res = await postLead(
    p.leads.url,
    {
      carUrl: "https://www.autoscout24.nl/aanbod/volkswagen-id-4",
      contactNumber: "06 12345678",
      email: `klant${n}@bedrijf.nl`,
      companyName: row.company ?? `Klant ${n} BV`,
      leaseTerm: 48,
    },
    `198.51.100.${n}`,
  );
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await p.sql.query(
    `UPDATE leads.lease_requests
        SET owner_id = $2, created_at = $3, response_due_at = $3::timestamptz + interval '24 hours',
            first_response_at = $4, first_response_kind = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE 'call' END,
            response_working_minutes = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE 60 END, status = $5
      WHERE id = $1`,
    [id, row.owner, row.created, row.firstResponse ?? null, row.status],
  );
  return id;
}

const mailsTo = (who: { username: string }) =>
  p.receiver.accepted().filter((m) => m.to.includes(`${who.username}@broker.nl`));

/** Week 13's campaigns in tracking: "lente" (Meta) brought 3 quote requests and 1 contract for €300, "zoek" (Google) 1 for €90. */
async function seedCampaigns(cookie: string) {
  const deps = writerDeps(trackingDb);
  let n = 0;
  const visit = (session: string, page: string) =>
    pageView(`w-${++n}`, session, page, "2026-03-24T09:00:00Z");
  const lente = "/?utm_source=facebook&utm_medium=paid_social&utm_campaign=lente";
  const zoek = "/?utm_source=google&utm_medium=cpc&utm_campaign=zoek";
  await insertBatch(deps, [
    visit("s-lente-1", lente),
    visit("s-lente-2", lente),
    visit("s-lente-3", lente),
    visit("s-zoek-1", zoek),
  ]);
  const recorder = new ConversionRecorder(trackingDb, deps.profileDims);
  const at = new Date("2026-03-24T10:00:00Z");
  const sessions = ["s-lente-1", "s-lente-2", "s-lente-3", "s-zoek-1"];
  for (const [i, sessionId] of sessions.entries()) {
    const leadId = `5e1c0000-0000-4000-8000-00000000000${i + 1}`;
    await recorder.record(
      { source: "lease_request", leadId, sessionId, at },
      await recorder.visitDays(sessionId, at),
    );
  }
  await leadStagesRepository(trackingDb, deps.profileDims).apply({
    source: "lease_request",
    sourceId: "5e1c0000-0000-4000-8000-000000000001",
    seq: 1,
    status: "getekend",
    offered: true,
    signed: true,
    commissionCents: 120000,
  });
  for (const entry of [
    { platform: "meta", day: "2026-03-24", campaign: "lente", amount: 300 },
    { platform: "google", day: "2026-03-24", campaign: "zoek", amount: 90 },
  ]) {
    const res = await fetch(`${tracking.url}/api/admin/ad-spend`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify(entry),
    });
    expect(res.status).toBe(200);
  }
}

beforeAll(async () => {
  // Small pools: five services of this file share one PostgreSQL with the rest of the suite.
  p = await startPipeline({ DATABASE_POOL_MAX: "3" }, { startMailer: false, clock });
  leads2 = await startLeads(p.env, { clock });
  tracking = await startTracking(p.env, { clock: { now: () => MONDAY_0800.getTime() } });
  const mailerEnv = { ...p.env, TRACKING_URL: tracking.url, PUBLIC_ORIGIN: ORIGIN };
  mailers.push(await startMailer(mailerEnv), await startMailer(mailerEnv));
  redis = new Redis(p.env.REDIS_URL!, { maxRetriesPerRequest: null });
  queue = createQueueClient(redis, p.env.REDIS_PREFIX!);
  trackingDb = new pg.Pool({ connectionString: p.db.url, max: 2 });
  const chose = { weeklySummary: true };
  await tellStaff(p, staffState(alice, 1, chose));
  await tellStaff(p, staffState(bob, 2, chose));
  await tellStaff(p, staffState(carol, 3));
  await tellStaff(p, staffState(dave, 4, { ...chose, active: false }));
  await seedCampaigns(await p.adminCookie());
}, 90_000);

afterAll(async () => {
  await queue?.close();
  redis?.disconnect();
  await trackingDb?.end();
  for (const mailer of mailers) await mailer.stop();
  await tracking?.stop();
  await leads2?.stop();
  await p?.stop();
});

describe("the weekly summary e-mail", () => {
  it("is scheduled once for Monday 08:00 Amsterdam time, however many replicas started", async () => {
    const leadsQueue = queue.raw("leads");
    await waitFor(async () => (await leadsQueue.getJobScheduler("weekly-summary")) !== undefined);
    expect(await leadsQueue.getJobSchedulersCount()).toBe(1);
    const scheduler = (await leadsQueue.getJobScheduler("weekly-summary"))!;
    expect(scheduler).toMatchObject({ pattern: "0 8 * * 1", tz: "Europe/Amsterdam" });
    const next = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Amsterdam",
      weekday: "long",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    }).format(scheduler.next!);
    expect(next).toBe("Monday 08:00:00");
    expect(scheduler.next! - Date.now()).toBeGreaterThan(0);
    expect(scheduler.next! - Date.now()).toBeLessThanOrEqual(7 * 24 * 3600_000);
  });

  it("sends each admin who chose it one e-mail with last week's figures, with two replicas running the job at once and SendGrid down at first", async () => {
    // Week 13: alice answered one in an hour and one late (28 hours); bob's first waits past its
    // deadline, his second arrived on Sunday night and is still within it. One lead of week 12 and
    // one of this Monday morning are not last week's.
    await lead(1, {
      owner: alice.id,
      created: "2026-03-23T09:00:00Z",
      firstResponse: "2026-03-23T10:00:00Z",
      status: "gereageerd",
    });
    await lead(2, {
      owner: alice.id,
      created: "2026-03-25T09:00:00Z",
      firstResponse: "2026-03-26T13:00:00Z",
      status: "offerte",
    });
    const late = await lead(3, {
      owner: bob.id,
      created: "2026-03-27T09:00:00Z",
      status: "nieuw",
      company: "Laat BV",
    });
    await lead(4, { owner: bob.id, created: "2026-03-29T20:00:00Z", status: "nieuw" });
    await lead(5, {
      owner: alice.id,
      created: "2026-03-20T09:00:00Z",
      firstResponse: "2026-03-20T09:30:00Z",
      status: "getekend",
    });
    await lead(6, { owner: carol.id, created: "2026-03-30T05:30:00Z", status: "nieuw" });

    // The company's new-lead e-mails first, so that SendGrid's refusal below meets a summary.
    await waitFor(
      () => p.receiver.accepted().filter((m) => m.to.includes("info@testlease.nl")).length === 6,
      20_000,
      "the company's new-lead e-mails",
    );
    // SendGrid answers the first send 503; the mail job retries it (5 s later).
    p.receiver.answer(503);
    // The week's job, doubled (as if two schedulers had fired): both leads replicas take one at once.
    await Promise.all([
      queue.enqueue("leads.weekly-summary", {}, { jobId: "weekly-a" }),
      queue.enqueue("leads.weekly-summary", {}, { jobId: "weekly-b" }),
    ]);
    await waitFor(
      () => mailsTo(alice).length >= 1 && mailsTo(bob).length >= 1,
      30_000,
      "both summaries sent",
    );
    expect(p.receiver.received.filter((m) => m.status === 503)).toHaveLength(1);
    // A mail job delivered again, and the week's job run again (a restart), send nothing more.
    await queue.enqueue("mail.weekly-summary", { adminId: alice.id, week: "2026-W13" }, { jobId: "again" });
    await queue.enqueue("leads.weekly-summary", {}, { jobId: "weekly-c" });
    await waitFor(async () => (await queue.raw("mail").getJob("again"))?.finishedOn !== undefined);
    await waitFor(async () => (await queue.raw("leads").getJob("weekly-c"))?.finishedOn !== undefined);
    await new Promise((r) => setTimeout(r, 1_000));

    expect(mailsTo(alice)).toHaveLength(1);
    expect(mailsTo(bob)).toHaveLength(1);
    expect(mailsTo(carol)).toHaveLength(0);
    expect(mailsTo(dave)).toHaveLength(0);
    expect(await p.count("SELECT count(*) AS n FROM leads.weekly_summaries WHERE week = '2026-W13'")).toBe(2);
    expect(
      await p.count("SELECT count(*) AS n FROM leads.outbox WHERE job_name = 'mail.weekly-summary'"),
    ).toBe(2);
    const rows = await p.sql.query(
      "SELECT status, attempts FROM mailer.outgoing_emails WHERE dedupe_key LIKE 'weekly:%' ORDER BY attempts",
    );
    expect(rows.rows).toEqual([
      { status: "sent", attempts: 1 },
      { status: "sent", attempts: 2 },
    ]);

    const [a] = mailsTo(alice) as [ReceivedMail];
    expect(a.subject).toBe("Weekoverzicht week 13: 4 aanvragen, 0 openstaande leads te laat");
    expect(a.text).toContain("Hallo alice,");
    expect(a.text).toContain("week 13 (23 maart 2026 t/m 29 maart 2026)");
    // Everyone's week 13: 4 requests, 2 answered; 1 within 24 hours of 3 decided (bob's Sunday one is not yet).
    expect(a.text).toContain(
      [
        "Alle aanvragen",
        "Aanvragen: 4, beantwoord: 2, nooit beantwoord: 2",
        "Binnen de belofte van 24 uur (klokuren): 33% (1 van 3)",
        "Reactietijd: mediaan 1 u, 90% binnen 1 d 4 u (klokuren)",
        `Het rapport Reactietijden: ${ORIGIN}/admin?tab=reactietijden`,
      ].join("\n"),
    );
    expect(a.text).toContain(
      [
        "Jouw aanvragen",
        "Aanvragen: 2, beantwoord: 2, nooit beantwoord: 0",
        "Binnen de belofte van 24 uur (klokuren): 50% (1 van 2)",
      ].join("\n"),
    );
    expect(a.text).toContain(
      "Jouw openstaande leads nu\n2 openstaande leads, waarvan 0 te laat\n" +
        "Klant 1 BV (lease aanvraag, ontvangen 23 maart 2026 om 10:00, gereageerd): ",
    );
    // The cheapest campaigns: zoek €90 a lead, lente €100 a lead and €300 a contract.
    expect(a.text).toContain(
      [
        "Laagste kosten per aanvraag:",
        "- zoek (google / cpc): € 90,00 per aanvraag (€ 90,00 uitgegeven)",
        "- lente (facebook / paid_social): € 100,00 per aanvraag (€ 300,00 uitgegeven)",
        "Laagste kosten per contract:",
        "- lente (facebook / paid_social): € 300,00 per contract (€ 300,00 uitgegeven)",
      ].join("\n"),
    );
    expect(a.html).toContain(`<a href="${ORIGIN}/admin?tab=campagnes">Alle campagnes</a>`);
    // No customer's address or phone number, no secret.
    for (const part of [a.text, a.html]) {
      expect(part).not.toMatch(/klant\d@bedrijf\.nl|06 12345678|SG\./);
    }

    const [b] = mailsTo(bob) as [ReceivedMail];
    expect(b.subject).toBe("Weekoverzicht week 13: 4 aanvragen, 1 openstaande lead te laat");
    expect(b.text).toContain(
      [
        "Jouw aanvragen",
        "Aanvragen: 2, beantwoord: 0, nooit beantwoord: 2",
        "Binnen de belofte van 24 uur (klokuren): 0% (0 van 1)",
      ].join("\n"),
    );
    // The late one first, linked to its page in the panel.
    expect(b.text).toContain(
      `2 openstaande leads, waarvan 1 te laat\nTe laat: Laat BV (lease aanvraag, reageren moest vóór 28 maart 2026 om 10:00): ${ORIGIN}/admin?tab=aanvragen&lead=${late}`,
    );
    expect(b.html).toContain(`href="${ORIGIN}/admin?tab=aanvragen&amp;lead=${late}"`);
  }, 60_000);

  it("answers its figures only to the services, and a bad week or unknown admin in Dutch", async () => {
    const token = { "x-internal-token": p.env.INTERNAL_TOKEN! };
    const summary = (admin: string, week: string, headers: Record<string, string> = token) =>
      fetch(`${p.leads.url}/internal/staff/${admin}/weekly-summary?week=${week}`, { headers });
    expect((await summary(alice.id, "2026-W13", {})).status).toBe(403);
    const bad = await summary(alice.id, "2026-13");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe(
      "Geef de week op als JJJJ-Www, bijvoorbeeld 2026-W13",
    );
    const unknown = await summary(crypto.randomUUID(), "2026-W13");
    expect([unknown.status, ((await unknown.json()) as { message: string }).message]).toEqual([
      404,
      "Beheerder niet gevonden",
    ]);
    expect((await summary(alice.id, "2026-W13")).status).toBe(200);
    const campaigns = `${tracking.url}/internal/campaign-report?from=2026-03-23&to=2026-03-29`;
    expect((await fetch(campaigns)).status).toBe(403);
    expect((await fetch(campaigns, { headers: token })).status).toBe(200);
  });
});
