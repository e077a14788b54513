import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUEUES } from "@lease/contracts";
import { createQueueClient, type QueueClient } from "@lease/platform";
import { UNKNOWN_OUTCOME_ERROR } from "../../services/mailer/src/domain/delivery";
import { postLead, startPipeline, type Pipeline } from "./mail-pipeline";
import { waitFor } from "@lease/platform/testing";
import { serviceMainArgs } from "../../scripts/lib/ts-entry.mjs";

// The mailer runs as a real child process and is SIGKILLed in the middle of 100 jobs (100 leads:
// one job each for its inbox entry and the company's notification). After a restart every job must
// complete, each inbox row must exist once and no e-mail may reach the provider twice.

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const LEADS = 100;
const CONCURRENCY = 5;

let p: Pipeline;
let child: ChildProcess | undefined;
let bull: Redis;
let queue: QueueClient;

async function spawnMailer(): Promise<ChildProcess> {
  const proc = spawn(process.execPath, await serviceMainArgs("mailer"), {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...p.env,
      PORT: "0",
      METRICS_PORT: "0",
      WORKER_CONCURRENCY: String(CONCURRENCY),
      WORKER_LOCK_MS: "2000",
      WORKER_STALLED_INTERVAL_MS: "1000",
      SEND_STALE_CLAIM_MS: "1500",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return proc;
}

beforeAll(async () => {
  p = await startPipeline({}, { startMailer: false });
  bull = new Redis(p.env.REDIS_URL!, { maxRetriesPerRequest: null });
  queue = createQueueClient(bull, p.env.REDIS_PREFIX!);
});
afterAll(async () => {
  child?.kill("SIGKILL");
  await queue?.close();
  bull?.disconnect();
  await p?.stop();
});

const counts = () =>
  queue.raw(QUEUES.mail).getJobCounts("completed", "failed", "waiting", "active", "delayed");

describe("a mailer killed mid-batch", () => {
  it("finishes every job after a restart, with each inbox row once and no e-mail sent twice", async () => {
    for (let i = 0; i < LEADS; i++) {
      const res = await postLead(p.leads.url, {
        carUrl: `https://www.example.nl/auto/${i}`,
        contactNumber: `06 ${String(20000000 + i)}`,
        email: `crash${i}@bedrijf.nl`,
        companyName: `Crash ${i}`,
      });
      expect(res.status).toBe(201);
    }
    await waitFor(async () => (await counts()).waiting === LEADS, 10_000, "100 waiting jobs");

    // Slow answers keep sends in flight, so the kill lands in the middle of them.
    p.receiver.delay(40);
    child = await spawnMailer();
    await waitFor(async () => p.receiver.received.length >= 20, 30_000, "the first sends");
    child.kill("SIGKILL");
    await new Promise((r) => child!.once("exit", r));
    const before = await counts();
    expect(before.completed).toBeLessThan(LEADS);

    p.receiver.delay(0);
    child = await spawnMailer();
    await waitFor(async () => (await counts()).completed === LEADS, 60_000, "all 100 jobs completed");
    const after = await counts();
    expect(after).toMatchObject({ failed: 0, waiting: 0, active: 0, delayed: 0 });

    expect(await p.count("SELECT count(*) AS n FROM mailer.email_messages")).toBe(LEADS);
    expect(await p.count("SELECT count(DISTINCT source_id) AS n FROM mailer.email_messages")).toBe(LEADS);
    expect(await p.count("SELECT count(*) AS n FROM mailer.outgoing_emails")).toBe(LEADS);

    // No e-mail reached the provider twice.
    const perEmail = new Map<string, number>();
    for (const m of p.receiver.received) {
      const id = m.customArgs.outgoing_email_id!;
      perEmail.set(id, (perEmail.get(id) ?? 0) + 1);
    }
    expect([...perEmail.values()].every((n) => n === 1)).toBe(true);

    // Every sent row was received exactly once; a send cut off by the kill is marked failed with
    // an unknown outcome (visible to the admin) instead of being sent a second time.
    const { rows } = await p.sql.query<{ id: string; status: string; last_error: string | null }>(
      "SELECT id, status, last_error FROM mailer.outgoing_emails",
    );
    const sent = rows.filter((r) => r.status === "sent");
    const unknown = rows.filter((r) => r.status === "failed");
    expect(sent.length + unknown.length).toBe(LEADS);
    for (const r of sent) expect(perEmail.get(r.id)).toBe(1);
    for (const r of unknown) expect(r.last_error).toBe(UNKNOWN_OUTCOME_ERROR);
    expect(unknown.length).toBeLessThanOrEqual(CONCURRENCY);
  }, 120_000);
});
