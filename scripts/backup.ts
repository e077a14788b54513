// Backups of the lease database, and the restore drill. Run it through the runner, which finds
// PostgreSQL and Redis as `npm start` does (set DATABASE_URL / REDIS_URL to aim elsewhere):
//
//   npm run backup -- dump [FILE]               pg_dump (custom format) of the whole database, all
//                                               five schemas, into FILE (default
//                                               .tmp/backups/lease-<UTC time>.dump)
//   npm run backup -- restore FILE [--replace]  restores FILE into the database, creating it when
//                                               missing; one that already holds the service schemas
//                                               only with --replace (it is dropped first)
//   npm run backup -- drill [FILE]              the restore drill: FILE (default: a fresh dump) is
//                                               restored into a scratch database <name>_drill, the
//                                               gateway and leads services start on it, a temporary
//                                               admin signs in and must see, through the admin API,
//                                               every lease request the dump holds; the scratch
//                                               database is dropped again. Exit code 0 only then.
//
// The drill never sends mail (the mailer is not started) and writes only to its scratch database
// and a Redis prefix of its own, both removed afterwards. The nightly CronJob of the prod overlay
// makes the same dumps (infra/k8s/overlays/prod/backup-cronjob.yaml, infra/README.md "Backups").
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { deleteRedisKeysWithPrefix, postgresBinDir, withDatabase } from "./lib/provision.mjs";
import { freePort } from "./lib/stack.mjs";

const SCHEMAS = ["gateway", "leads", "settings", "tracking", "mailer", "conversions", "drizzle"];

export class BackupError extends Error {}

/** A PostgreSQL client program; its password travels in the environment, never on the command line. */
function pgTool(tool: "pg_dump" | "pg_restore", url: string, args: string[]) {
  const bin = postgresBinDir();
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = "";
  const r = spawnSync(bin ? path.join(bin, tool) : tool, [...args, `--dbname=${u.toString()}`], {
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error)
    throw new BackupError(
      `${tool} could not run: ${r.error.message} (install the postgresql-client package)`,
    );
  if (r.status !== 0) throw new BackupError(`${tool} failed: ${r.stderr.trim()}`);
  return r.stdout;
}

const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

async function withClient<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** pg_dump --format=custom of the database into `file` (written beside it, then renamed: never half a file). */
export function dumpDatabase(url: string, file: string): { file: string; bytes: number } {
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  try {
    pgTool("pg_dump", url, ["--format=custom", `--file=${partial}`]);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  return { file, bytes: statSync(file).size };
}

/**
 * Restores a dump into the database of `url`, in one transaction. The database is created when
 * missing; one that holds any of the service schemas is refused unless `replace` drops it first.
 */
export async function restoreDatabase(
  file: string,
  url: string,
  opts: { replace?: boolean } = {},
): Promise<void> {
  statSync(file);
  const name = databaseName(url);
  const exists = await withClient(withDatabase(url, "postgres"), async (c) => {
    const r = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    return r.rowCount === 1;
  });
  if (exists) {
    const held = await withClient(url, async (c) => {
      const r = await c.query<{ schema_name: string }>(
        "SELECT schema_name FROM information_schema.schemata WHERE schema_name = ANY($1) ORDER BY 1",
        [SCHEMAS],
      );
      return r.rows.map((row) => row.schema_name);
    });
    if (held.length > 0 && !opts.replace)
      throw new BackupError(
        `database ${name} already holds ${held.join(", ")}: restore into another database, or pass --replace to drop it first`,
      );
  }
  await withClient(withDatabase(url, "postgres"), async (c) => {
    if (exists && opts.replace) await c.query(`DROP DATABASE "${name}" WITH (FORCE)`);
    if (!exists || opts.replace) await c.query(`CREATE DATABASE "${name}"`);
  });
  pgTool("pg_restore", url, ["--exit-on-error", "--single-transaction", file]);
}

/** The ids of the lease requests a dump holds, read from the dump itself (its COPY data). */
export function dumpedLeaseRequestIds(file: string): string[] {
  const bin = postgresBinDir();
  const r = spawnSync(
    bin ? path.join(bin, "pg_restore") : "pg_restore",
    ["--data-only", "--schema=leads", "--table=lease_requests", "--file=-", file],
    { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  );
  if (r.status !== 0) throw new BackupError(`pg_restore could not read ${file}: ${r.stderr.trim()}`);
  const lines = r.stdout.split("\n");
  const start = lines.findIndex((l) => l.startsWith("COPY leads.lease_requests ("));
  if (start < 0) throw new BackupError(`${file} holds no leads.lease_requests table`);
  const columns = /\((.*)\)/.exec(lines[start] as string)?.[1]?.split(", ") ?? [];
  const at = columns.indexOf("id");
  const ids: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === "\\.") break;
    ids.push(line.split("\t")[at] as string);
  }
  return ids;
}

/** Every lease request the admin sees in the list (all pages), through the gateway's API. */
export async function leaseRequestIdsSeenByAdmin(gatewayUrl: string, username: string, password: string) {
  const headers = { origin: gatewayUrl, "content-type": "application/json" };
  const login = await fetch(`${gatewayUrl}/api/admin/login`, {
    method: "POST",
    headers,
    body: JSON.stringify({ username, password }),
  });
  const cookie = /admin_session=[^;]*/.exec(login.headers.get("set-cookie") ?? "")?.[0];
  if (login.status !== 200 || !cookie)
    throw new BackupError(`the drill admin could not sign in (${login.status})`);
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${gatewayUrl}/api/admin/lease-requests?page=${page}&pageSize=200`, {
      headers: { ...headers, cookie },
    });
    if (res.status !== 200) throw new BackupError(`the admin list answered ${res.status}`);
    const body = (await res.json()) as { items: { id: string }[]; total: number };
    ids.push(...body.items.map((i) => i.id));
    if (body.items.length === 0 || ids.length >= body.total) return ids;
  }
}

/** The gateway and leads services, in this process, on `databaseUrl` (what the admin list needs). */
export async function startAdminPath(databaseUrl: string, env: NodeJS.ProcessEnv) {
  const [{ startGateway }, { startLeads }] = await Promise.all([
    import("@lease/gateway"),
    import("@lease/leads"),
  ]);
  const ports = { gateway: await freePort(), leads: await freePort() };
  const nowhere = "http://127.0.0.1:9";
  const serviceEnv = {
    ...env,
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: `drill${randomBytes(5).toString("hex")}`,
    HOST: "127.0.0.1",
    LOG_LEVEL: env.DRILL_LOG_LEVEL ?? "warn",
    // Beside a running stack (npm start holds 8080-8084 and metrics on 9080-9084) the drill binds
    // only ports the system picks: its metrics listeners too, or they take the stack's defaults.
    METRICS_PORT: "0",
    PUBLIC_ORIGIN: `http://127.0.0.1:${ports.gateway}`,
    LEADS_URL: `http://127.0.0.1:${ports.leads}`,
    // Not started: the drill never sends mail or records visits.
    SETTINGS_URL: nowhere,
    TRACKING_URL: nowhere,
    MAILER_URL: nowhere,
  };
  const leads = await startLeads({ ...serviceEnv, PORT: String(ports.leads) });
  const gateway = await startGateway({ ...serviceEnv, PORT: String(ports.gateway) }).catch(async (err) => {
    await leads.stop();
    throw err;
  });
  return {
    url: gateway.url,
    async stop() {
      await gateway.stop();
      await leads.stop();
      await deleteRedisKeysWithPrefix(env.REDIS_URL as string, serviceEnv.REDIS_PREFIX);
    },
  };
}

export interface DrillResult {
  dump: string;
  bytes: number;
  expected: number;
  seen: number;
  missing: string[];
  seconds: number;
}

/** The restore drill (see the top of this file). */
export async function restoreDrill(env: NodeJS.ProcessEnv, given?: string): Promise<DrillResult> {
  const source = env.DATABASE_URL;
  if (!source || !env.REDIS_URL)
    throw new BackupError("DATABASE_URL and REDIS_URL are needed (npm run backup sets them)");
  const started = Date.now();
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "Z");
  const fresh = given ? undefined : dumpDatabase(source, `.tmp/backups/drill-${stamp}.dump`);
  const file = given ?? (fresh as { file: string }).file;
  const scratch = withDatabase(source, `${databaseName(source)}_drill`);
  try {
    await restoreDatabase(file, scratch, { replace: true });
    const expected = dumpedLeaseRequestIds(file);
    // An admin of the scratch copy only, dropped with it.
    const username = `drill-${randomBytes(4).toString("hex")}`;
    const password = randomBytes(18).toString("base64url");
    await addAdmin(scratch, username, password);
    const services = await startAdminPath(scratch, env);
    let seen: string[];
    try {
      seen = await leaseRequestIdsSeenByAdmin(services.url, username, password);
    } finally {
      await services.stop();
    }
    const visible = new Set(seen);
    return {
      dump: file,
      bytes: statSync(file).size,
      expected: expected.length,
      seen: expected.filter((id) => visible.has(id)).length,
      missing: expected.filter((id) => !visible.has(id)),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await withClient(withDatabase(source, "postgres"), (c) =>
      c.query(`DROP DATABASE IF EXISTS "${databaseName(scratch)}" WITH (FORCE)`),
    );
    if (fresh) rmSync(fresh.file, { force: true });
  }
}

async function addAdmin(databaseUrl: string, username: string, password: string): Promise<void> {
  const { hashPassword } = await import("../services/gateway/src/domain/passwords");
  await withClient(databaseUrl, (c) =>
    hashPassword(password).then((hash) =>
      c.query("INSERT INTO gateway.admins (username, password) VALUES ($1, $2)", [username, hash]),
    ),
  );
}

const USAGE = "usage: npm run backup -- dump [FILE] | restore FILE [--replace] | drill [FILE]";

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const url = process.env.DATABASE_URL;
  if (!url) throw new BackupError("DATABASE_URL is not set: run this as npm run backup -- ...");
  const file = rest.find((a) => !a.startsWith("--"));
  if (command === "dump") {
    const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "Z");
    const out = dumpDatabase(url, file ?? `.tmp/backups/${databaseName(url)}-${stamp}.dump`);
    console.log(`dumped ${databaseName(url)} into ${out.file} (${out.bytes} bytes)`);
    return 0;
  }
  if (command === "restore" && file) {
    await restoreDatabase(file, url, { replace: rest.includes("--replace") });
    console.log(`restored ${file} into ${databaseName(url)}`);
    return 0;
  }
  if (command === "drill") {
    const r = await restoreDrill(process.env, file);
    console.log(
      `restore drill: ${r.seen} of ${r.expected} lease requests in the dump are visible to the admin on the restored database ` +
        `(dump ${r.bytes} bytes, ${r.seconds.toFixed(1)} s)`,
    );
    if (r.missing.length > 0) console.error(`missing: ${r.missing.join(", ")}`);
    return r.missing.length === 0 ? 0 : 1;
  }
  console.error(USAGE);
  return 64;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(err instanceof BackupError ? err.message : `backup: ${err.message}`);
      process.exit(1);
    },
  );
}
