import pg from "pg";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPPED_BACKOFF, QUEUES } from "@lease/contracts";
import { createQueueClient, type QueueClient, type RunningService } from "@lease/platform";
import { createTestDatabase, testEnv, type TestDatabase } from "@lease/platform/testing";
import { startLeads } from "../service";
import { waitFor } from "@lease/platform/testing";
import { postJson, validLead } from "../testing";

let db: TestDatabase;
let replicas: RunningService[] = [];
let sql: pg.Pool;
let bull: Redis;
let queue: QueueClient;

beforeAll(async () => {
  db = await createTestDatabase("relay");
  const env = testEnv({ DATABASE_URL: db.url, LEAD_RATE_LIMIT: "1000" });
  replicas = [await startLeads(env), await startLeads(env), await startLeads(env)];
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  bull = new Redis(env.REDIS_URL!, { maxRetriesPerRequest: null });
  queue = createQueueClient(bull, env.REDIS_PREFIX!);
});
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await queue?.close();
  bull?.disconnect();
  await sql?.end();
  await db?.drop();
});

describe("outbox relay", () => {
  it("publishes every outbox row exactly once as a job (id = outbox id, data = ids only) with three replicas relaying", async () => {
    await Promise.all(
      Array.from({ length: 90 }, (_, i) =>
        postJson(`${replicas[i % 3]!.url}/api/lease-requests`, {
          ...validLead,
          email: `r${i}@relay.nl`,
        }).then((r) => expect(r.status).toBe(201)),
      ),
    );
    await waitFor(
      async () =>
        Number(
          (await sql.query("SELECT count(*) AS n FROM leads.outbox WHERE published_at IS NULL")).rows[0].n,
        ) === 0,
      10_000,
      "outbox drained",
    );
    const mail = await queue.raw(QUEUES.mail).getJobs(["waiting"], 0, 1000);
    // The conversions wait their delay (the visit's last page views reach Postgres meanwhile).
    const conversions = await queue.raw(QUEUES.tracking).getJobs(["delayed", "waiting"], 0, 1000);
    const jobs = [...mail, ...conversions];
    const { rows } = await sql.query<{ id: string }>("SELECT id FROM leads.outbox");
    expect(mail).toHaveLength(90);
    expect(conversions).toHaveLength(90);
    expect(new Set(jobs.map((j) => j.id))).toEqual(new Set(rows.map((r) => r.id)));
    for (const job of conversions)
      expect(job.data).toMatchObject({ source: "lease_request", sessionId: null });
    for (const job of jobs) {
      expect(Object.keys(job.data).sort()).toEqual(expect.arrayContaining(["source", "sourceId"]));
      expect(JSON.stringify(job.data)).not.toContain("@relay.nl");
      expect(job.opts.attempts).toBeGreaterThan(1);
      expect(job.opts.backoff).toMatchObject({ type: CAPPED_BACKOFF });
    }
  });

  it("reports the waiting rows and the age of the oldest on the metrics listener", async () => {
    const gauge = async (name: string) =>
      Number(
        new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+-]+)`, "m").exec(
          await (await fetch(replicas[0]!.metricsUrl)).text(),
        )?.[1],
      );
    // A row two minutes old that the relays cannot publish: its payload fails the job's schema.
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO leads.outbox (job_name, payload, created_at)
       VALUES ('inbox.log', '{"source":"nope","sourceId":"00000000-0000-4000-8000-000000000001"}', now() - interval '120 seconds')
       RETURNING id`,
    );
    await waitFor(async () => (await gauge("leads_outbox_oldest_pending_seconds")) >= 120, 5000, "age");
    expect(await gauge("leads_outbox_pending")).toBe(1);
    // Repaired, it is relayed, and the figures drop back to 0.
    await sql.query(
      `UPDATE leads.outbox SET payload = jsonb_set(payload, '{source}', '"contact_form"') WHERE id = $1`,
      [rows[0]!.id],
    );
    await waitFor(async () => (await gauge("leads_outbox_pending")) === 0, 10_000, "relayed");
    expect(await gauge("leads_outbox_oldest_pending_seconds")).toBe(0);
  });
});
