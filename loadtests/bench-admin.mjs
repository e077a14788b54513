// The benchmarks act as an admin of the stack's own database (a session names the admin's id):
// "bench", created without a usable password (nobody signs in as it) when the database has none.
import pg from "pg";
import { Redis } from "ioredis";
import { tsImport } from "tsx/esm/api";

/** A session token of the admin "bench" for a stack started by scripts/lib/stack.mjs. */
export async function benchAdminToken(databaseUrl, redisUrl, stack) {
  const { issueSession, keyspace } = await tsImport("../libs/platform/src/index.ts", import.meta.url);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const admin = await db
    .query(
      `WITH made AS (INSERT INTO gateway.admins (username, password) VALUES ('bench', '!')
                   ON CONFLICT DO NOTHING RETURNING id, username)
       SELECT id, username FROM made UNION ALL SELECT id, username FROM gateway.admins WHERE username = 'bench'`,
    )
    .then((r) => r.rows[0])
    .finally(() => db.end());
  const redis = new Redis(redisUrl);
  try {
    const { token } = await issueSession(
      { redis, keys: keyspace(stack.env.REDIS_PREFIX), jwtSecret: stack.env.JWT_SECRET },
      admin,
    );
    return token;
  } finally {
    redis.disconnect();
  }
}

/** The built stack (services built first) on `databaseUrl`, with the admin "bench" signed in. */
export async function startBenchStack(databaseUrl) {
  const { buildServices } = await import("../scripts/build.mjs");
  const { provision } = await import("../scripts/lib/provision.mjs");
  const { startStack } = await import("../scripts/lib/stack.mjs");
  await buildServices();
  const infra = await provision();
  const stack = await startStack({
    databaseUrl,
    redisUrl: infra.redisUrl,
    env: { LOG_LEVEL: "warn" },
    logDir: ".tmp/bench",
  });
  const stop = async () => {
    await stack.stop();
    await infra.stop();
  };
  try {
    return { stack, token: await benchAdminToken(databaseUrl, infra.redisUrl, stack), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
