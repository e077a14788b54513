import pg from "pg";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUEUES } from "@lease/contracts";
import {
  createDatabase,
  createLogger,
  createQueueClient,
  runMigrations,
  type QueueClient,
} from "@lease/platform";
import { createTestDatabase, testEnv, waitFor, type TestDatabase } from "@lease/platform/testing";
import { delivery } from "../domain/delivery";
import { sendgridTransport } from "../domain/transport";
import { inboxRepository } from "../repositories/inbox";
import { outgoingRepository } from "../repositories/outgoing";
import { MAILER_MIGRATIONS } from "../service";
import { CONFIGURED } from "../testing";
import { onFinalFailure } from "./handlers";
import { startSweeper } from "./sweeper";

// The two safety nets behind "never silently dropped": a send that fails its last attempt is marked
// failed (the inbox shows it), and an e-mail recorded while the queue was unreachable is queued later.

let db: TestDatabase;
let pool: pg.Pool;
let redis: Redis;
let queue: QueueClient;
const logger = createLogger("test", "silent");
const env = testEnv();

beforeAll(async () => {
  db = await createTestDatabase("mailrec");
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  // The database is dropped WITH (FORCE) at the end; a connection still closing then must not crash the run.
  pool.on("error", () => undefined);
  await runMigrations(pool, "mailer", MAILER_MIGRATIONS);
  redis = new Redis(env.REDIS_URL!, { maxRetriesPerRequest: null });
  queue = createQueueClient(redis, env.REDIS_PREFIX!);
});
afterAll(async () => {
  await queue?.close();
  redis?.disconnect();
  await pool?.end();
  await db?.drop();
});

const email = (subject: string) => ({
  dedupeKey: `compose:${subject}`,
  kind: "compose",
  toEmail: "klant@bedrijf.nl",
  subject,
  textBody: "tekst",
  htmlBody: "<p>tekst</p>",
  leaseRequestId: null,
});
const inboxFields = (subject: string) => ({
  subject,
  senderName: "Test Lease BV",
  senderEmail: "noreply@testlease.nl",
  recipientEmail: "klant@bedrijf.nl",
  messageBody: "tekst",
  messageType: "other",
  sentAt: null,
});

describe("failure visibility and recovery", () => {
  it("marks a send failed after its last attempt, so the inbox shows deliveryStatus failed", async () => {
    const outgoing = outgoingRepository(createDatabase(pool));
    const inbox = inboxRepository(createDatabase(pool));
    const { outgoingId, inboxId } = await outgoing.recordWithInboxEntry(
      email("Laatste poging"),
      inboxFields("Laatste poging"),
    );
    await pool.query("UPDATE mailer.outgoing_emails SET status = 'failed_retryable' WHERE id = $1", [
      outgoingId,
    ]);
    const send = delivery({
      outgoing,
      settings: { get: async () => CONFIGURED, invalidate: () => undefined },
      transport: sendgridTransport("http://127.0.0.1:9"),
      staleClaimMs: 60_000,
    });
    await onFinalFailure({ delivery: send, outgoing }, logger)(
      "mail.send",
      { outgoingEmailId: outgoingId },
      new Error("provider answered 503"),
    );
    expect((await inbox.get(inboxId))?.deliveryStatus).toBe("failed");
    expect((await outgoing.get(outgoingId))?.lastError).toMatch(
      /gave up after retries: provider answered 503/,
    );
  });

  it("queues again an e-mail that was recorded but never reached the queue", async () => {
    const outgoing = outgoingRepository(createDatabase(pool));
    const { outgoingId } = await outgoing.recordWithInboxEntry(
      email("Nooit gequeued"),
      inboxFields("Nooit gequeued"),
    );
    await pool.query(
      "UPDATE mailer.outgoing_emails SET updated_at = now() - interval '1 minute' WHERE id = $1",
      [outgoingId],
    );
    const sweeper = startSweeper({ outgoing, queue, intervalMs: 100, logger });
    try {
      const job = await waitFor(
        () => queue.raw(QUEUES.mail).getJob(outgoingId),
        5000,
        "the sweeper's re-queued send",
        50,
      );
      expect(job?.name).toBe("mail.send");
      expect(job?.data).toMatchObject({ outgoingEmailId: outgoingId });
    } finally {
      await sweeper.stop();
    }
  });
});
