import pg from "pg";
import { adminCookie, createTestDatabase, testEnv } from "@lease/platform/testing";
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
  return {
    db,
    env,
    svc,
    cookie,
    sql,
    async stop() {
      await sql.end();
      await svc.stop();
      await db.drop();
    },
  };
}
export type LeadsHarness = Awaited<ReturnType<typeof startLeadsHarness>>;
