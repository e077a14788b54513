import type { RunningService } from "../kit";
import { adminCookie, createTestDatabase, testEnv, type TestDatabase } from "./env";

/** One service under test, started in-process on port 0 on a database of its own. */
export interface TestService<S extends RunningService = RunningService> {
  svc: S;
  url: string;
  db: TestDatabase;
  env: NodeJS.ProcessEnv;
  /** A Cookie header value with a fresh, valid admin session for this service's Redis prefix. */
  adminCookie(): Promise<string>;
  /** Stops the service, then drops its database (unless the test passed its own). */
  stop(): Promise<void>;
}

/**
 * Starts a service with its own factory (the platform imports no service): a test database
 * labelled `label` (or `opts.db`), testEnv() with `opts.env` over it, and `start(env)`.
 */
export async function startTestService<S extends RunningService>(
  start: (env: NodeJS.ProcessEnv) => Promise<S>,
  opts: { label?: string; env?: Record<string, string | undefined>; db?: TestDatabase } = {},
): Promise<TestService<S>> {
  const db = opts.db ?? (await createTestDatabase(opts.label ?? "svc"));
  const env = testEnv({ DATABASE_URL: db.url, ...opts.env });
  let svc: S;
  try {
    svc = await start(env);
  } catch (err) {
    if (!opts.db) await db.drop().catch(() => undefined);
    throw err;
  }
  return {
    svc,
    url: svc.url,
    db,
    env,
    adminCookie: () => adminCookie(env),
    async stop() {
      await svc.stop();
      if (!opts.db) await db.drop();
    },
  };
}
