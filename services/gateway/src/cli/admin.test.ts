import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDatabase,
  createLogger,
  createPool,
  issueSession,
  runMigrations,
  verifySession,
  type Pool,
  type Redis,
  type SessionDeps,
} from "@lease/platform";
import {
  baseRedisUrl,
  createTestDatabase,
  runProcess,
  testAdmin,
  testEnv,
  type TestDatabase,
} from "@lease/platform/testing";
import { connectRedis, sessionDepsFor } from "../testing";
import { verifyPassword } from "../domain/passwords";
import { adminsRepository } from "../repositories/admins";
import { GATEWAY_MIGRATIONS } from "../service";
import { entryArgs } from "../../../../scripts/lib/ts-entry.mjs";

// The admin CLI as a user runs it: a real process, the password on stdin, a real database. It runs
// as `npm run admin` runs it: the entry's cached bundle (scripts/lib/ts-entry.mjs).

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
let cli: string[];

let db: TestDatabase;
let pool: Pool;
let redis: Redis;
let sessions: SessionDeps;
const env = testEnv();

beforeAll(async () => {
  cli = await entryArgs(fileURLToPath(new URL("./admin.ts", import.meta.url)));
  db = await createTestDatabase("gwcli");
  pool = createPool(db.url, createLogger("test", "silent"), 2);
  await runMigrations(pool, "gateway", GATEWAY_MIGRATIONS);
  redis = await connectRedis();
  sessions = sessionDepsFor(env, redis);
});
afterAll(async () => {
  redis.disconnect();
  await pool.end();
  await db.drop();
});

const run = (args: string[], stdin = "", extraEnv: Record<string, string | undefined> = {}) =>
  runProcess(process.execPath, [...cli, ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: db.url,
      REDIS_URL: baseRedisUrl(),
      REDIS_PREFIX: env.REDIS_PREFIX,
      ...extraEnv,
    },
    stdin,
  });

const stored = async (username: string) => adminsRepository(createDatabase(pool)).findByUsername(username);

describe("admin CLI", () => {
  it("ensure-first creates the first admin once, with a random password shown once", async () => {
    const weak = await run(["ensure-first"], "", { ADMIN_PASSWORD: "kort" });
    expect(weak.code).toBe(1);
    expect(weak.err).toContain("ADMIN_PASSWORD: Het wachtwoord moet minimaal 12 tekens hebben");
    expect(await stored("admin")).toBeUndefined();

    const first = await run(["ensure-first"]);
    expect(first.code).toBe(0);
    const password = /with password: (\S+)/.exec(first.out)?.[1];
    expect(password).toBeDefined();
    expect(password!.length).toBeGreaterThanOrEqual(12);
    const admin = await stored("admin");
    expect(admin).toBeDefined();
    expect(await verifyPassword(admin!.password, password!)).toBe(true);

    const second = await run(["ensure-first"], "", { ADMIN_PASSWORD: "another-password-1234" });
    expect(second.code).toBe(0);
    expect(second.out).toBe("");
    expect(await verifyPassword((await stored("admin"))!.password, password!)).toBe(true);
  });

  it("create reads the password from stdin and stores only an argon2id hash", async () => {
    const res = await run(["create", "beheerder"], "een-lang-wachtwoord-42\n");
    expect(res.code).toBe(0);
    expect(res.out).toContain('Created admin "beheerder"');
    const admin = await stored("beheerder");
    expect(admin!.password).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(admin!.password, "een-lang-wachtwoord-42")).toBe(true);
    const again = await run(["create", "beheerder"], "een-lang-wachtwoord-42\n");
    expect(again.code).toBe(1);
    expect(again.err).toContain("already exists");
  });

  it("refuses a password shorter than 12 characters", async () => {
    const res = await run(["create", "kort"], "elf-tekens!\n");
    expect(res.code).toBe(1);
    expect(res.err).toContain("minimaal 12 tekens");
    expect(await stored("kort")).toBeUndefined();
    const reset = await run(["reset-password", "beheerder"], "te-kort\n");
    expect(reset.code).toBe(1);
    expect(await verifyPassword((await stored("beheerder"))!.password, "een-lang-wachtwoord-42")).toBe(true);
  });

  it("reset-password replaces the password and ends every session of that admin, and only of that admin", async () => {
    const before = await Promise.all([1, 2].map(() => issueSession(sessions, testAdmin("beheerder"))));
    const other = await issueSession(sessions, testAdmin("admin"));
    const res = await run(["reset-password", "beheerder"], "nieuw-wachtwoord-2024\n");
    expect(res.code).toBe(0);
    expect(res.out).toContain('every session of "beheerder" has ended');
    const hash = (await stored("beheerder"))!.password;
    expect(await verifyPassword(hash, "nieuw-wachtwoord-2024")).toBe(true);
    expect(await verifyPassword(hash, "een-lang-wachtwoord-42")).toBe(false);
    for (const { token } of before) expect(await verifySession(sessions, token)).toBeUndefined();
    expect(await verifySession(sessions, other.token)).toMatchObject({ username: "admin" });
    // A session signed in after the reset is valid.
    const after = await issueSession(sessions, testAdmin("beheerder"));
    expect(await verifySession(sessions, after.token)).toMatchObject({ username: "beheerder" });
    const unknown = await run(["reset-password", "bestaat-niet"], "nieuw-wachtwoord-2024\n");
    expect(unknown.code).toBe(1);
  });

  it("reset-password without a reachable Redis changes nothing and says why", async () => {
    const session = await issueSession(sessions, testAdmin("beheerder"));
    const missing = await run(["reset-password", "beheerder"], "derde-wachtwoord-2024\n", {
      REDIS_URL: undefined,
    });
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("REDIS_URL is not set");
    const down = await run(["reset-password", "beheerder"], "derde-wachtwoord-2024\n", {
      REDIS_URL: "redis://127.0.0.1:9",
    });
    expect(down.code).toBe(1);
    expect(down.err).toContain("nothing was changed");
    expect(await verifyPassword((await stored("beheerder"))!.password, "nieuw-wachtwoord-2024")).toBe(true);
    expect(await verifySession(sessions, session.token)).toBeDefined();
  }, 20_000);

  it("delete removes an admin and ends its sessions, but never the last admin", async () => {
    const session = await issueSession(sessions, testAdmin("beheerder"));
    const res = await run(["delete", "beheerder"]);
    expect(res.code).toBe(0);
    expect(res.out).toContain('Deleted admin "beheerder"; every session of "beheerder" has ended.');
    expect(await stored("beheerder")).toBeUndefined();
    expect(await verifySession(sessions, session.token)).toBeUndefined();
    expect((await run(["delete", "beheerder"])).code).toBe(1);
    const last = await run(["delete", "admin"]);
    expect(last.code).toBe(1);
    expect(last.err).toContain('"admin" is the only admin');
    expect(await stored("admin")).toBeDefined();
  });

  it("reset-totp turns two-factor sign-in off (a lost phone), recovery codes included", async () => {
    const repo = adminsRepository(createDatabase(pool));
    const admin = (await stored("admin"))!;
    await repo.setPendingTotp(admin.id, "v1.sealed");
    expect(await repo.enableTotp(admin.id, 1, ["a", "b"])).toBe(true);
    expect(await repo.recoveryCodesLeft(admin.id)).toBe(2);
    const res = await run(["reset-totp", "admin"]);
    expect(res.code).toBe(0);
    expect(res.out).toContain('Two-factor sign-in of "admin" is off');
    const after = (await stored("admin"))!;
    expect([after.totpSecret, after.totpEnabledAt]).toEqual([null, null]);
    expect(await repo.recoveryCodesLeft(admin.id)).toBe(0);
    expect((await run(["reset-totp", "niemand"])).code).toBe(1);
  });

  it("shows the usage for an unknown command or a bad username", async () => {
    expect((await run(["drop", "beheerder"])).code).toBe(2);
    expect((await run(["create", "met spatie"], "nieuw-wachtwoord-2024\n")).code).toBe(2);
  });
});
