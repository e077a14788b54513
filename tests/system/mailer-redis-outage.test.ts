import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOwnRedis, type OwnRedis, waitFor } from "@lease/platform/testing";
import { postLead, startPipeline, type Pipeline } from "./mail-pipeline";

// Redis is only needed after the 201: leads are stored with their outbox rows in Postgres, and the
// relay publishes them once Redis is back. Effects are counted in Postgres and at the receiver.

let redis: OwnRedis;
let p: Pipeline;
beforeAll(async () => {
  redis = await startOwnRedis();
  p = await startPipeline({ REDIS_URL: redis.url });
});
afterAll(async () => {
  await p?.stop();
  await redis?.stop();
});

const lead = (i: number) => ({
  carUrl: `https://www.example.nl/auto/${i}`,
  contactNumber: `06 ${String(10000000 + i)}`,
  email: `klant${i}@bedrijf.nl`,
  companyName: `Bedrijf ${i}`,
});

describe("with Redis down", () => {
  it("accepts 50 leads (201) and, once Redis is back, logs exactly 50 inbox rows and sends 50 notifications", async () => {
    await redis.stop();
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await postLead(p.leads.url, lead(i), "203.0.113.50");
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    expect(await p.count("SELECT count(*) AS n FROM leads.lease_requests")).toBe(50);
    // Per lead: one job for the mailer (inbox entry and notification), the conversion for tracking.
    expect(await p.count("SELECT count(*) AS n FROM leads.outbox WHERE published_at IS NULL")).toBe(100);

    await redis.start();
    await waitFor(
      async () =>
        (await p.count(
          "SELECT count(*) AS n FROM mailer.email_messages WHERE message_type = 'lease_request'",
        )) === 50 &&
        p.receiver.accepted().length === 50 &&
        (await p.count("SELECT count(*) AS n FROM mailer.outgoing_emails WHERE status = 'sent'")) === 50,
      30_000,
      "50 inbox rows and 50 notifications",
    );
    // Give stray duplicates a chance to show up before counting for good.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await p.count("SELECT count(*) AS n FROM leads.outbox WHERE published_at IS NULL")).toBe(0);
    expect(await p.count("SELECT count(DISTINCT source_id) AS n FROM mailer.email_messages")).toBe(50);
    expect(await p.count("SELECT count(*) AS n FROM mailer.email_messages")).toBe(50);
    const sent = p.receiver.accepted();
    expect(sent).toHaveLength(50);
    expect(new Set(sent.map((m) => m.customArgs.outgoing_email_id)).size).toBe(50);
    expect(new Set(sent.map((m) => m.subject))).toEqual(
      new Set(ids.map((_, i) => `Nieuwe lease aanvraag van Bedrijf ${i}`)),
    );
    expect(await p.count("SELECT count(*) AS n FROM mailer.outgoing_emails WHERE status = 'sent'")).toBe(50);
  });

  it("keeps the rate limit in memory while Redis is down, never refusing a lead for it", async () => {
    // A second leads instance with a limit of 1: with Redis down the first post from an address
    // passes and the second is limited from memory (services/leads/src/domain/rate-limit.test.ts
    // shows Redis counting again after).
    const { startLeads } = await import("@lease/leads");
    const strict = await startLeads({ ...p.env, LEAD_RATE_LIMIT: "1" });
    try {
      await redis.stop();
      try {
        expect((await postLead(strict.url, lead(100), "203.0.113.77")).status).toBe(201);
        const second = await postLead(strict.url, lead(101), "203.0.113.77");
        expect(second.status).toBe(429);
        expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
        expect((await postLead(strict.url, lead(104), "203.0.113.79")).status).toBe(201);
      } finally {
        await redis.start();
      }
      await waitFor(async () => (await fetch(`${strict.url}/readyz`)).status === 200, 10_000, "redis back");
      expect((await postLead(strict.url, lead(102), "203.0.113.78")).status).toBe(201);
      expect((await postLead(strict.url, lead(103), "203.0.113.78")).status).toBe(429);
    } finally {
      await strict.stop();
    }
  });
});
