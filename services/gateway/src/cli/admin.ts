import { existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import {
  closeRedis,
  createDatabase,
  createLogger,
  createPool,
  createRedis,
  endAllSessions,
  keyspace,
  migrateOnStart,
  prepareSchema,
  redactUrl,
  withTimeout,
} from "@lease/platform";
import { ADMIN_USERNAME_PATTERN } from "@lease/contracts";
import { adminsRepository, type AdminsRepository } from "../repositories/admins";
import { hashPassword, newPasswordProblem } from "../domain/passwords";
import { GATEWAY_MIGRATIONS } from "../service";
import { JOBS_USAGE, jobsCommand } from "./jobs";

// Admin accounts: `npm run admin -- create USER`, `reset-password USER` (password from a prompt
// or stdin), `delete USER`, `reset-totp USER` (two-factor sign-in off, for a lost phone without
// recovery codes) and `ensure-first` (used by npm start: creates the first admin when none
// exists). reset-password and delete end every session of that admin at once (in Redis). The team
// is managed in the admin panel too ("Gebruikers": create with a one-time password, disable, remove).
// `jobs failed` and `jobs retry [QUEUE]` show and retry the queues' failed jobs (./jobs.ts).

const USAGE = `usage: npm run admin -- create USER | reset-password USER | delete USER | reset-totp USER | ensure-first | ${JOBS_USAGE}`;
const USERNAME = ADMIN_USERNAME_PATTERN;
const logger = createLogger("admin-cli", "warn");

interface SessionStore {
  endAll(username: string): Promise<void>;
  close(): Promise<void>;
}

/** Redis, where sessions live; connected before anything changes, so a failure changes nothing. */
async function connectSessionStore(): Promise<SessionStore> {
  const url = process.env.REDIS_URL;
  if (!url) throw new Error("REDIS_URL is not set: it is needed to end the admin's sessions (export it)");
  const redis = createRedis(url, "commands", logger);
  try {
    if (redis.status !== "ready")
      await withTimeout(
        new Promise((resolve, reject) => {
          redis.once("ready", resolve);
          redis.once("error", reject);
        }),
        5000,
      );
  } catch {
    redis.disconnect();
    throw new Error(`cannot reach Redis at ${redactUrl(url)}; nothing was changed`);
  }
  const deps = { redis, keys: keyspace(process.env.REDIS_PREFIX || "lease") };
  return {
    endAll: (username) => endAllSessions(deps, username, logger),
    close: () => closeRedis(redis),
  };
}

/** Ends the admin's sessions after the change in the database, saying so when that fails. */
async function endSessions(store: SessionStore, username: string, change: string): Promise<number> {
  try {
    await store.endAll(username);
  } catch (err) {
    console.error(
      `${change}, but the sessions of "${username}" could not be ended (${(err as Error).message}); run the command again once Redis answers`,
    );
    return 1;
  }
  console.log(`${change}; every session of "${username}" has ended.`);
  return 0;
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    let data = "";
    for await (const chunk of process.stdin) data += chunk;
    return data.replace(/\r?\n$/, "");
  }
  const muted = new Writable({ write: (_c, _e, cb) => cb() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  process.stdout.write("Password (min 12 characters): ");
  const answer = await new Promise<string>((resolve) => rl.question("", resolve));
  rl.close();
  process.stdout.write("\n");
  return answer;
}

async function main(argv: string[]): Promise<number> {
  if (existsSync(".env")) process.loadEnvFile(".env");
  const [command, username] = argv;
  if (command === "jobs") return jobsCommand(argv.slice(1), logger);
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(
      "DATABASE_URL is not set: run this as npm run admin -- ..., which finds the database as npm start does",
    );
    return 1;
  }
  const pool = createPool(url, logger, 2);
  try {
    await prepareSchema(pool, "gateway", GATEWAY_MIGRATIONS, migrateOnStart());
    const admins = adminsRepository(createDatabase(pool));
    if (command === "ensure-first") {
      if ((await admins.count()) > 0) return 0;
      const name = process.env.ADMIN_USERNAME || "admin";
      if (!USERNAME.test(name)) {
        console.error("ADMIN_USERNAME: use 1-100 letters, digits and . _ @ -");
        return 1;
      }
      const given = process.env.ADMIN_PASSWORD;
      const password = given || randomBytes(12).toString("base64url");
      const problem = newPasswordProblem(password);
      if (problem) {
        console.error(`ADMIN_PASSWORD: ${problem}`);
        return 1;
      }
      await admins.create(name, await hashPassword(password));
      console.log(
        given
          ? `Created admin "${name}" with the password from ADMIN_PASSWORD.`
          : `Created admin "${name}" with password: ${password}\n(shown once; change it with: npm run admin -- reset-password ${name})`,
      );
      return 0;
    }
    if (
      !["create", "reset-password", "delete", "reset-totp"].includes(command ?? "") ||
      !username ||
      !USERNAME.test(username)
    ) {
      console.error(USAGE);
      return 2;
    }
    if (command === "delete") return await deleteAdmin(admins, username);
    if (command === "reset-totp") {
      const admin = await admins.findByUsername(username);
      if (!admin) {
        console.error(`no admin "${username}"`);
        return 1;
      }
      await admins.disableTotp(admin.id);
      console.log(`Two-factor sign-in of "${username}" is off; they sign in with their password alone.`);
      return 0;
    }
    const password = await readPassword();
    const problem = newPasswordProblem(password);
    if (problem) {
      console.error(problem);
      return 1;
    }
    const hash = await hashPassword(password);
    if (command === "create") {
      const created = await admins.create(username, hash);
      if (created === "taken") {
        console.error(
          `admin "${username}" already exists (names are compared without case); use reset-password`,
        );
        return 1;
      }
      if (created === "retired") {
        console.error(
          `"${username}" was the name of a removed admin and is never given again; choose another`,
        );
        return 1;
      }
      console.log(`Created admin "${username}".`);
      return 0;
    }
    const store = await connectSessionStore();
    try {
      if (!(await admins.setPassword(username, hash))) {
        console.error(`no admin "${username}"`);
        return 1;
      }
      return await endSessions(store, username, `Password of "${username}" changed`);
    } finally {
      await store.close();
    }
  } finally {
    await pool.end();
  }
}

async function deleteAdmin(admins: AdminsRepository, username: string): Promise<number> {
  const admin = await admins.findByUsername(username);
  if (!admin) {
    console.error(`no admin "${username}"`);
    return 1;
  }
  if ((await admins.count()) <= 1) {
    console.error(`"${username}" is the only admin; create another one first`);
    return 1;
  }
  if (!admin.disabledAt && (await admins.activeCount()) <= 1) {
    console.error(`"${username}" is the only active admin; enable or create another one first`);
    return 1;
  }
  const store = await connectSessionStore();
  try {
    await admins.remove(username);
    return await endSessions(store, username, `Deleted admin "${username}"`);
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`admin: ${err.message}`);
    process.exit(1);
  },
);
