import { ConfigError } from "./config";
import { createLogger } from "./logger";
import { startTracing } from "./tracing";

/**
 * Process entry: start the service, stop it cleanly on SIGTERM/SIGINT, and turn a bad start
 * (config, unreachable dependency) into one line and a non-zero exit instead of a stack trace.
 */
export function runMain(
  name: string,
  start: () => Promise<{ stop(): Promise<void> }>,
  shutdownTimeoutMs = 10_000,
): void {
  const logger = createLogger(name);
  process.on("unhandledRejection", (reason) => {
    logger.error({ err: reason instanceof Error ? reason.message : String(reason) }, "unhandled rejection");
  });
  start()
    .then((service) => {
      let stopping = false;
      const onSignal = (signal: NodeJS.Signals) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, "shutting down");
        // Backstop: if something refuses to close, leave anyway after the deadline.
        setTimeout(() => {
          logger.error("shutdown took too long; exiting");
          process.exit(1);
        }, shutdownTimeoutMs + 5000).unref();
        service.stop().then(
          () => process.exit(0),
          (err: Error) => {
            logger.error({ err: err.message }, "shutdown failed");
            process.exit(1);
          },
        );
      };
      process.on("SIGTERM", onSignal);
      process.on("SIGINT", onSignal);
    })
    .catch((err: Error) => {
      const line = err instanceof ConfigError ? err.message : `${name} failed to start: ${err.message}`;
      process.stderr.write(`${line}\n`);
      process.exit(1);
    });
}

/**
 * A service's entry point. With RUN_MIGRATIONS_ONLY=1 it applies its migrations and exits (the
 * Kubernetes migration Job, which gets only DATABASE_URL); otherwise it runs until SIGTERM/SIGINT,
 * migrating at start or only checking the schema (MIGRATE_ON_START).
 */
export function runServiceMain(opts: {
  name: string;
  migrationsFolder: URL;
  start: () => Promise<{ stop(): Promise<void> }>;
}): void {
  if (process.env.RUN_MIGRATIONS_ONLY === "1") {
    runMigrationJob(opts.name, opts.migrationsFolder).then(
      () => process.exit(0),
      (err: Error) => {
        process.stderr.write(`${opts.name} migrations failed: ${err.message}\n`);
        process.exit(1);
      },
    );
    return;
  }
  runMain(
    opts.name,
    async () => {
      // Before the service starts, so its first request is traced; flushed after it stops.
      const tracing = await startTracing(opts.name);
      const service = await opts.start();
      return {
        async stop() {
          await service.stop();
          await tracing.shutdown().catch(() => undefined);
        },
      };
    },
    Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 10_000),
  );
}

async function runMigrationJob(name: string, folder: URL): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is required");
  const { createPool, runMigrations } = await import("./pg");
  const logger = createLogger(name);
  const pool = createPool(url, logger);
  try {
    await runMigrations(pool, name, folder);
    const { rows } = await pool.query<{ applied: string }>(
      `SELECT count(*) AS applied FROM drizzle."${name}_migrations"`,
    );
    logger.info({ applied: Number(rows[0]?.applied) }, `${name} schema is up to date`);
  } finally {
    await pool.end();
  }
}
