// Starts the whole built stack (gateway + five services, from services/*/dist) on free ports
// against a given PostgreSQL database and Redis: used by the browser tests, the load tests,
// Lighthouse and the system tests (scale-out, observability); `npm start` shares its node arguments.
// Each process logs to <logDir>/<name>.log (.tmp/stack unless told).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync } from "node:fs";
import net from "node:net";

export const SERVICE_NAMES = ["leads", "settings", "tracking", "mailer", "conversions", "gateway"];

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// A service that has not answered /healthz by then failed to start. On a quiet host each is up in
// about a second; on a host at load 30 (CI beside other work) migrations and imports took over 30 s.
const START_TIMEOUT_MS = Number(process.env.STACK_START_TIMEOUT_MS) || 90_000;

async function waitHealthy(url, ms, child) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return false;
    try {
      // A bounded wait: whatever else answers on that port must not hold the start up.
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) })).ok) return true;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** Node arguments of a service; SERVICE_NODE_FLAGS adds flags to every service, e.g. "--prof". */
export function serviceNodeArgs(name) {
  const flags = (process.env.SERVICE_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  return [...flags, "--enable-source-maps", `services/${name}/dist/main.js`];
}

/**
 * Starts the processes. `replicas` may ask for more than one of a service (scale-out tests):
 * e.g. { gateway: 2, tracking: 2 }. Gateways are told every replica of each service; services the first.
 */
export async function startStack({
  databaseUrl,
  redisUrl,
  env: extraEnv = {},
  replicas = {},
  logDir = ".tmp/stack",
  /** How a free port is found (a test hands out a taken one). */
  pickPort = freePort,
  attempt = 1,
} = {}) {
  mkdirSync(logDir, { recursive: true });
  const secrets = {
    JWT_SECRET: extraEnv.JWT_SECRET ?? randomBytes(48).toString("base64url"),
    INTERNAL_TOKEN: extraEnv.INTERNAL_TOKEN ?? randomBytes(32).toString("base64url"),
    SETTINGS_ENCRYPTION_KEY: extraEnv.SETTINGS_ENCRYPTION_KEY ?? randomBytes(32).toString("base64"),
  };
  const redisPrefix =
    extraEnv.REDIS_PREFIX ?? `${process.env.TEST_REDIS_PREFIX ?? ""}s${randomBytes(4).toString("hex")}`;
  // Every port of the stack distinct: the kernel may hand out a just-released port again.
  const taken = new Set();
  const distinctPort = async () => {
    for (;;) {
      const port = await pickPort();
      if (!taken.has(port)) {
        taken.add(port);
        return port;
      }
    }
  };
  const ports = {};
  const metricsPorts = {};
  for (const name of SERVICE_NAMES) {
    ports[name] = [];
    metricsPorts[name] = [];
    for (let i = 0; i < (replicas[name] ?? 1); i++) {
      ports[name].push(await distinctPort());
      metricsPorts[name].push(await distinctPort());
    }
  }
  const url = (name, i = 0) => `http://127.0.0.1:${ports[name][i]}`;
  const all = (name) => ports[name].map((_, i) => url(name, i)).join(",");
  const baseEnv = {
    ...process.env,
    NODE_ENV: "test",
    LOG_LEVEL: process.env.STACK_LOG_LEVEL ?? "info",
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    ...secrets,
    // Every replica, comma-separated: the gateway balances over them like a Kubernetes Service.
    LEADS_URL: all("leads"),
    SETTINGS_URL: all("settings"),
    TRACKING_URL: all("tracking"),
    MAILER_URL: all("mailer"),
    CONVERSIONS_URL: all("conversions"),
    WEB_DIST_DIR: "web/dist",
    SHUTDOWN_TIMEOUT_MS: "5000",
    ...extraEnv,
  };
  // Services call each other's /internal routes through one URL (a Service address in Kubernetes).
  const firstReplicaUrls = {
    LEADS_URL: url("leads"),
    SETTINGS_URL: url("settings"),
    TRACKING_URL: url("tracking"),
    MAILER_URL: url("mailer"),
  };
  const processes = [];
  const startOne = async (name, i) => {
    const log = createWriteStream(`${logDir}/${name}${i ? `-${i}` : ""}.log`, { flags: "a" });
    const child = spawn(process.execPath, serviceNodeArgs(name), {
      env: {
        ...baseEnv,
        ...(name === "gateway" ? {} : firstReplicaUrls),
        PORT: String(ports[name][i]),
        HOST: "127.0.0.1",
        // Metrics on a listener of their own, on loopback: what Prometheus scrapes.
        METRICS_PORT: String(metricsPorts[name][i]),
        METRICS_HOST: "127.0.0.1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    let portTaken = false;
    const seeTaken = (chunk) => (portTaken ||= chunk.includes("EADDRINUSE"));
    child.stdout.on("data", seeTaken);
    child.stderr.on("data", seeTaken);
    const entry = {
      name,
      index: i,
      child,
      url: url(name, i),
      port: ports[name][i],
      metricsUrl: `http://127.0.0.1:${metricsPorts[name][i]}/metrics`,
    };
    processes.push(entry);
    if (!(await waitHealthy(entry.url, START_TIMEOUT_MS, child))) {
      const error = new Error(`${name}#${i} did not start; see ${logDir}/${name}.log`);
      error.portTaken = portTaken;
      throw error;
    }
    return entry;
  };
  const stop = async () => {
    await Promise.all(
      processes.map(
        ({ child }) =>
          new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once("exit", resolve);
            child.kill("SIGTERM");
            setTimeout(() => child.kill("SIGKILL"), 8000).unref();
          }),
      ),
    );
  };
  try {
    // All side by side, as pods start: each service migrates its own schema (platform runMigrations
    // takes the locks), and a start's waits (database, Redis, migrations) overlap.
    const starts = SERVICE_NAMES.flatMap((name) => ports[name].map((_, i) => startOne(name, i)));
    const failed = (await Promise.allSettled(starts)).find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
  } catch (err) {
    await stop();
    // A port found free can be taken (by another process's connection) before the service binds
    // it: start again on new ports, as with tests running side by side.
    if (err.portTaken && attempt < 3) {
      const again = {
        databaseUrl,
        redisUrl,
        env: extraEnv,
        replicas,
        logDir,
        pickPort,
        attempt: attempt + 1,
      };
      return startStack(again);
    }
    throw err;
  }
  return {
    url: url("gateway"),
    urls: Object.fromEntries(SERVICE_NAMES.map((n) => [n, ports[n].map((_, i) => url(n, i))])),
    env: baseEnv,
    processes,
    /** Restarts one process (rolling-restart tests). */
    async restart(name, i = 0) {
      const entry = processes.find((p) => p.name === name && p.index === i);
      if (entry) {
        await new Promise((resolve) => {
          entry.child.once("exit", resolve);
          entry.child.kill("SIGTERM");
        });
        processes.splice(processes.indexOf(entry), 1);
      }
      return startOne(name, i);
    },
    stop,
  };
}
