import pg from "pg";
import type { RunningService } from "@lease/platform";
import {
  adminCookie,
  createTestDatabase,
  startSendgridReceiver,
  testEnv,
  type SendgridReceiver,
  type TestDatabase,
} from "@lease/platform/testing";
import { startLeads } from "@lease/leads";
import { startMailer } from "@lease/mailer";
import { startSettingsFixture } from "../../services/mailer/src/testing";

export type SettingsFixture = Awaited<ReturnType<typeof startSettingsFixture>>;

/**
 * leads + mailer on one test database and one Redis prefix (they share the queue), with the local
 * SendGrid receiver and the settings stand-in. `startMailer: false` leaves the mailer to the test.
 */
export async function startPipeline(
  overrides: Record<string, string> = {},
  opts: { startMailer?: boolean } = {},
) {
  const db: TestDatabase = await createTestDatabase("mail");
  const receiver: SendgridReceiver = await startSendgridReceiver();
  const base = testEnv({ DATABASE_URL: db.url, LEAD_RATE_LIMIT: "100000", ...overrides });
  const settings: SettingsFixture = await startSettingsFixture(base.INTERNAL_TOKEN!);
  const leads: RunningService = await startLeads(base);
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
