import { fileURLToPath } from "node:url";
import pg from "pg";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type { Logger } from "./logger";

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Database = NodePgDatabase<Record<string, unknown>>;

export function createPool(url: string, logger: Logger, max = 10): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 2000,
    idleTimeoutMillis: 30_000,
    // A statement that hangs (e.g. a lock) must not hold a request forever.
    statement_timeout: 10_000,
  });
  let down = false;
  pool.on("error", (err) => {
    if (!down) logger.warn({ err: err.message }, "postgres connection lost");
    down = true;
  });
  pool.on("connect", (client) => {
    // A checked-out client whose connection dies emits "error" on itself; without a listener that
    // would crash the process. The query in flight still fails and is handled by its caller.
    client.on("error", (err) => {
      if (!down) logger.warn({ err: err.message }, "postgres connection lost");
      down = true;
    });
    if (down) logger.info("postgres back");
    down = false;
  });
  return pool;
}

export function createDatabase(pool: pg.Pool): Database {
  return drizzle(pool);
}

export async function pingPostgres(pool: pg.Pool): Promise<void> {
  await pool.query("SELECT 1");
}

/**
 * Applies a service's checked-in drizzle migrations. Each service keeps its own journal table so
 * services never see each other's history; an advisory lock lets replicas start together.
 */
export async function runMigrations(
  pool: pg.Pool,
  service: string,
  migrationsFolder: string | URL,
): Promise<void> {
  const folder = migrationsFolder instanceof URL ? fileURLToPath(migrationsFolder) : migrationsFolder;
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [`migrations:${service}`]);
    try {
      await migrate(drizzle(client), {
        migrationsFolder: folder,
        migrationsSchema: "drizzle",
        migrationsTable: `${service}_migrations`,
      });
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext($1))", [`migrations:${service}`]);
    }
  } finally {
    client.release();
  }
}
