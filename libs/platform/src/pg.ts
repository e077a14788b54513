import { fileURLToPath } from "node:url";
import pg from "pg";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { Logger } from "./logger";

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Database = NodePgDatabase<Record<string, unknown>>;

export function createPool(
  url: string,
  logger: Logger,
  max = 10,
  /** A pool of its own for one kind of work may wait and run shorter than the default 2 s and 10 s. */
  opts: { statementTimeoutMs?: number; connectionTimeoutMs?: number } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: opts.connectionTimeoutMs ?? 2000,
    idleTimeoutMillis: 30_000,
    // A statement that hangs (e.g. a lock) must not hold a request forever.
    statement_timeout: opts.statementTimeoutMs ?? 10_000,
  });
  let down = false;
  // pool.end() resolves before its connections have closed: a server that ends them then (a drop of
  // the database, a restart) is no lost connection of a running service.
  const lost = (err: Error) => {
    if (!down && !pool.ending) logger.warn({ err: err.message }, "postgres connection lost");
    down = true;
  };
  pool.on("error", lost);
  pool.on("connect", (client) => {
    // A checked-out client whose connection dies emits "error" on itself; without a listener that
    // would crash the process. The query in flight still fails and is handled by its caller.
    client.on("error", lost);
    if (down) logger.info("postgres back");
    down = false;
  });
  return pool;
}

/**
 * Runs `work` in one transaction, handing it the transaction as a Database: repositories built on
 * it read and write inside the transaction (a drizzle transaction has the database's query API).
 */
export function inTransaction<T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as unknown as Database));
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
      // The journal schema is shared by all services, and CREATE SCHEMA IF NOT EXISTS is not safe
      // when two sessions run it at once (one fails on pg_namespace's unique index): services
      // starting together on a fresh database create it one at a time (always the inner lock).
      await client.query("SELECT pg_advisory_lock(hashtext('migrations:drizzle'))");
      try {
        await client.query("CREATE SCHEMA IF NOT EXISTS drizzle");
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtext('migrations:drizzle'))");
      }
      await migrate(drizzle(client), {
        migrationsFolder: folder,
        migrationsSchema: "drizzle",
        migrationsTable: `${service}_migrations`,
      });
    } catch (err) {
      // drizzle wraps the server's error in "Failed query: <the whole statement>"; the cause says
      // why. The journal schema's own statement fails unwrapped.
      const cause = ((err as { cause?: unknown }).cause ?? err) as { message?: string; code?: string };
      const hint =
        cause?.code === "42501"
          ? " (this role has no DDL rights: let the migration Job apply them and start with MIGRATE_ON_START=0)"
          : "";
      throw new Error(
        `cannot apply the migrations of ${service}: ${cause?.message ?? (err as Error).message}${hint}`,
        {
          cause: err,
        },
      );
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext($1))", [`migrations:${service}`]);
    }
  } finally {
    client.release();
  }
}

/**
 * Throws when some of a service's checked-in migrations are not applied to the database: with
 * MIGRATE_ON_START off the migration Job applies them, and a service must not start on an older
 * schema. Needs only USAGE on schema drizzle and SELECT on the service's journal table.
 */
export async function assertMigrated(
  pool: pg.Pool,
  service: string,
  migrationsFolder: string | URL,
): Promise<void> {
  const folder = migrationsFolder instanceof URL ? fileURLToPath(migrationsFolder) : migrationsFolder;
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  let lastApplied = 0;
  try {
    const r = await pool.query<{ last: string | null }>(
      `SELECT max(created_at) AS last FROM drizzle."${service}_migrations"`,
    );
    lastApplied = Number(r.rows[0]?.last ?? 0);
  } catch (err) {
    const code = (err as { code?: string }).code;
    // undefined_table, invalid_schema_name: nothing was ever applied.
    if (code !== "42P01" && code !== "3F000")
      throw new Error(
        `cannot read the migration journal drizzle.${service}_migrations: ${(err as Error).message}`,
      );
  }
  // The same rule drizzle's migrator applies: a migration newer than the last applied one is pending.
  const pending = migrations.filter((m) => m.folderMillis > lastApplied).length;
  if (pending > 0)
    throw new Error(
      `${pending} of ${migrations.length} migrations of ${service} are not applied: run its migration Job ` +
        "(RUN_MIGRATIONS_ONLY=1) first, or start it with MIGRATE_ON_START=1",
    );
}

/** Migrates (MIGRATE_ON_START on) or checks that nothing is pending (off): what a process does at start. */
export function prepareSchema(
  pool: pg.Pool,
  service: string,
  migrationsFolder: string | URL,
  migrate: boolean,
): Promise<void> {
  return migrate
    ? runMigrations(pool, service, migrationsFolder)
    : assertMigrated(pool, service, migrationsFolder);
}

/**
 * Runs `work` in one transaction on a client of its own: committed when it resolves, rolled back
 * when it throws (the error is passed on), the client released either way; a client that could
 * not even roll back is destroyed, not handed to the next caller.
 */
export async function withTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch((e: Error) => (broken = e));
    throw err;
  } finally {
    client.release(broken);
  }
}

/**
 * A connection with the pool's settings but outside it, for a lock held while the pool's own
 * connections do the work (the caller ends it).
 */
export async function connectBeside(pool: pg.Pool): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: pool.options.connectionString });
  await client.connect();
  return client;
}
