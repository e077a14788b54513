import pg from "pg";
import { Redis } from "ioredis";
import type { StaffJobData } from "@lease/contracts";
import { createQueueClient } from "@lease/platform";
import { adminCookie, createTestDatabase, testAdmin, testEnv, waitFor } from "@lease/platform/testing";
import { startLeads } from "../service";

export { adminCookie };

export const validLead = {
  carUrl: "https://www.autoscout24.nl/aanbod/volkswagen-id-4",
  contactNumber: "06 12345678",
  email: "jan@bedrijf.nl",
  companyName: "Bedrijf BV",
  leaseTerm: 48,
  message: "Graag een offerte",
};

/** POSTs JSON; `ip` is sent as X-Forwarded-For (believed because the test runs on a trusted address). */
export function postJson(
  url: string,
  body: unknown,
  ip = "203.0.113.1",
  headers: Record<string, string> = {},
) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip, ...headers },
    body: JSON.stringify(body),
  });
}

/**
 * A leads service of its own for a test file: its database, an admin session cookie and a pool for
 * looking at the rows; `stop` undoes all of it.
 */
export async function startLeadsHarness(name: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const db = await createTestDatabase(name);
  const env = testEnv({ DATABASE_URL: db.url, ...extraEnv });
  const svc = await startLeads(env);
  const cookie = await adminCookie(env);
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  let ipSeq = 0;
  /** A JSON request to the service as the signed-in admin (or another `cookie`). */
  const api = (
    method: string,
    path: string,
    body?: unknown,
    opts: { cookie?: string; contentType?: string } = {},
  ) =>
    fetch(`${svc.url}${path}`, {
      method,
      headers: { cookie: opts.cookie ?? cookie, "content-type": opts.contentType ?? "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    db,
    env,
    svc,
    cookie,
    sql,
    api,
    /** A quote request from the public form (each from an address of its own); its id. */
    async quote(): Promise<string> {
      const res = await postJson(
        `${svc.url}/api/lease-requests`,
        validLead,
        `198.51.100.${(++ipSeq % 250) + 1}`,
      );
      if (res.status !== 201) throw new Error(`quote request answered ${res.status}`);
      return ((await res.json()) as { id: string }).id;
    },
    async stop() {
      await sql.end();
      await svc.stop();
      await db.drop();
    },
  };
}
export type LeadsHarness = Awaited<ReturnType<typeof startLeadsHarness>>;

/**
 * Tells the leads service of an admin as the gateway does (a leads.staff job on its queue), and
 * waits until it is applied.
 */
export async function tellStaff(h: LeadsHarness, data: StaffJobData): Promise<void> {
  const redis = new Redis(h.env.REDIS_URL!, { maxRetriesPerRequest: null });
  const queue = createQueueClient(redis, h.env.REDIS_PREFIX!);
  try {
    await queue.enqueue("leads.staff", data, { jobId: `staff-${data.adminId}-${data.revision}` });
  } finally {
    await queue.close();
    redis.disconnect();
  }
  await waitFor(async () => {
    const { rows } = await h.sql.query("SELECT 1 FROM leads.staff WHERE admin_id = $1 AND revision >= $2", [
      data.adminId,
      data.revision,
    ]);
    return rows.length > 0;
  });
}

let staffRevision = 0;
/** An admin as tellStaff sends it: active, taking new leads, with the id testAdmin gives the name. */
export const staffMember = (username: string, patch: Partial<StaffJobData> = {}): StaffJobData => ({
  adminId: testAdmin(username).id,
  username,
  active: true,
  removed: false,
  takesNewLeads: true,
  revision: ++staffRevision,
  notifyEmail: null,
  overdueEmail: false,
  weeklySummary: false,
  ...patch,
});
