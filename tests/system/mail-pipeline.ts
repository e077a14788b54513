import pg from "pg";
import { Redis } from "ioredis";
import type { StaffJobData } from "@lease/contracts";
import { createQueueClient, type RunningService } from "@lease/platform";
import {
  adminCookie,
  createTestDatabase,
  startSendgridReceiver,
  testEnv,
  waitFor,
  type SendgridReceiver,
  type TestDatabase,
} from "@lease/platform/testing";
import { startLeads } from "@lease/leads";
import { startMailer } from "@lease/mailer";
import { startSettingsFixture } from "../../services/mailer/src/testing";

export type SettingsFixture = Awaited<ReturnType<typeof startSettingsFixture>>;

/**
 * leads + mailer on one test database and one Redis prefix (they share the queue), with the local
 * SendGrid receiver and the settings stand-in. `startMailer: false` leaves the mailer to the test;
 * `clock` is the time leads' weekly summary reads.
 */
export async function startPipeline(
  overrides: Record<string, string> = {},
  opts: { startMailer?: boolean; clock?: () => Date } = {},
) {
  const db: TestDatabase = await createTestDatabase("mail");
  const receiver: SendgridReceiver = await startSendgridReceiver();
  const base = testEnv({ DATABASE_URL: db.url, LEAD_RATE_LIMIT: "100000", ...overrides });
  const settings: SettingsFixture = await startSettingsFixture(base.INTERNAL_TOKEN!);
  const leads: RunningService = await startLeads(base, { clock: opts.clock });
  const env: NodeJS.ProcessEnv = {
    ...base,
    LEADS_URL: leads.url,
    SETTINGS_URL: settings.url,
    SENDGRID_API_BASE_URL: receiver.url,
  };
  let mailer: RunningService | undefined = opts.startMailer === false ? undefined : await startMailer(env);
  const sql = new pg.Pool({ connectionString: db.url, max: 3 });
  // The database is dropped WITH (FORCE) at the end; a connection still closing then must not crash the run.
  sql.on("error", () => undefined);
  return {
    db,
    env,
    receiver,
    settings,
    leads,
    sql,
    get mailer() {
      return mailer;
    },
    async restartMailer() {
      await mailer?.stop();
      mailer = await startMailer(env);
      return mailer;
    },
    async count(query: string, params: unknown[] = []): Promise<number> {
      return Number((await sql.query(query, params)).rows[0].n);
    },
    adminCookie: () => adminCookie(env),
    async stop() {
      await mailer?.stop();
      await leads.stop();
      await sql.end();
      await receiver.close();
      await settings.close();
      await db.drop();
    },
  };
}
export type Pipeline = Awaited<ReturnType<typeof startPipeline>>;

export function postLead(url: string, body: Record<string, unknown>, ip = "203.0.113.9") {
  return fetch(`${url}/api/lease-requests`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify(body),
  });
}

/** An admin as the gateway tells leads of them (leads.staff), their notices going to `<name>@broker.nl`. */
export const staffState = (
  who: { id: string; username: string },
  revision: number,
  extra: Partial<StaffJobData> = {},
): StaffJobData => ({
  adminId: who.id,
  username: who.username,
  active: true,
  removed: false,
  takesNewLeads: true,
  revision,
  notifyEmail: `${who.username}@broker.nl`,
  overdueEmail: false,
  weeklySummary: false,
  ...extra,
});

/** Tells leads of an admin as the gateway does, and waits until leads has that revision. */
export async function tellStaff(p: Pipeline, data: StaffJobData) {
  const redis = new Redis(p.env.REDIS_URL!, { maxRetriesPerRequest: null });
  const queue = createQueueClient(redis, p.env.REDIS_PREFIX!);
  await queue.enqueue("leads.staff", data, { jobId: `staff-${data.adminId}-${data.revision}` });
  await queue.close();
  redis.disconnect();
  await waitFor(
    async () =>
      (await p.count("SELECT count(*) AS n FROM leads.staff WHERE revision = $1", [data.revision])) === 1,
  );
}
