// The environment a local run gives the code: `npm start` and every command run through
// scripts/cli.mjs resolve it here, so they find the same PostgreSQL, Redis, database and secrets.
import { ensureDatabase, provision, withDatabase } from "./provision.mjs";
import { ensureSecrets } from "./secrets.mjs";

/** The database a local run keeps its data in, on the server that provision() found or started. */
export const LOCAL_DATABASE = "lease";

/**
 * Finds or starts PostgreSQL and Redis (provision.mjs), reads or generates the secrets (.env) and
 * returns { infra, env }: env is `base` with the secrets, DATABASE_URL and REDIS_URL; infra.stop()
 * ends the servers started here (none when they already ran).
 */
export async function localEnvironment(base = process.env) {
  // Private servers it starts leave with infra.stop(), after the command's own processes.
  const infra = await provision(base, { detached: true });
  try {
    const secrets = ensureSecrets(base);
    let databaseUrl = base.DATABASE_URL;
    if (!databaseUrl) {
      await ensureDatabase(infra.databaseServerUrl, LOCAL_DATABASE);
      databaseUrl = withDatabase(infra.databaseServerUrl, LOCAL_DATABASE);
    }
    return { infra, env: { ...base, ...secrets, DATABASE_URL: databaseUrl, REDIS_URL: infra.redisUrl } };
  } catch (err) {
    await infra.stop();
    throw err;
  }
}
