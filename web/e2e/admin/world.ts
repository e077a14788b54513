// The admin browser tests run against the REAL built stack (gateway + four services from
// services/*/dist) on a database of their own, with the local SendGrid receiver as the only fake.
// The world starts once, on first use, and is shared by the story's steps.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import type { Socket } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import pg from "pg";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { createTestDatabase, type TestDatabase } from "@lease/platform/testing";
import {
  startSendgridReceiver,
  type SendgridReceiver,
} from "@lease/platform/testing";
import { CHROMIUM_ARGS, CHROMIUM_PATH, DESKTOP } from "../harness";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const ADMIN_USERNAME = "admin";
const DESKTOP_CHROME_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

interface StackProcess {
  name: string;
  child: { unref(): void; stdout: Socket | null; stderr: Socket | null; kill(signal?: string): boolean };
}
interface RunningStack {
  url: string;
  env: Record<string, string>;
  processes: StackProcess[];
  stop(): Promise<void>;
}
type StartStack = (options: {
  databaseUrl: string;
  redisUrl: string;
  env?: Record<string, string>;
  logDir?: string;
}) => Promise<RunningStack>;

export interface OpenOptions {
  viewport?: { width: number; height: number };
  /** Runs on the new context before the first navigation (routes, cookies). */
  before?: (context: BrowserContext) => Promise<void>;
  /** Default networkidle; "commit" returns as soon as navigation starts (to see loading states). */
  waitUntil?: "networkidle" | "commit";
}

export interface AdminWorld {
  baseUrl: string;
  password: string;
  receiver: SendgridReceiver;
  sql: pg.Pool;
  browser: Browser;
  /** A fresh browser context (own cookies) on a page of the site. */
  open(path: string, options?: OpenOptions): Promise<{ page: Page; context: BrowserContext }>;
  close(): Promise<void>;
}

let world: Promise<AdminWorld> | null = null;

export function adminWorld(): Promise<AdminWorld> {
  world ??= startWorld();
  return world;
}

/** Stops the world if it was started (the story's last step calls it). */
export async function closeAdminWorld(): Promise<void> {
  if (!world) return;
  const started = world;
  world = null;
  await (await started).close();
}

function requireBuilt(): void {
  const missing = [
    "services/gateway/dist/main.js",
    "services/gateway/dist/admin.js",
    "web/dist/app.html",
  ].filter((file) => !existsSync(join(REPO_ROOT, file)));
  if (missing.length > 0) {
    throw new Error(`build first (node scripts/build.mjs all); missing: ${missing.join(", ")}`);
  }
}

async function startWorld(): Promise<AdminWorld> {
  requireBuilt();
  // stack.mjs starts services/<name>/dist by relative path.
  process.chdir(REPO_ROOT);
  const runDir = join(REPO_ROOT, ".tmp", `admin-e2e-${randomBytes(3).toString("hex")}`);
  mkdirSync(runDir, { recursive: true });
  // A private copy of the built site, so a concurrent web build cannot change it mid-run.
  const webDist = join(runDir, "web-dist");
  cpSync(join(REPO_ROOT, "web", "dist"), webDist, { recursive: true });

  const db: TestDatabase = await createTestDatabase("admine2e");
  const receiver = await startSendgridReceiver();
  const { startStack } = (await import(pathToFileURL(join(REPO_ROOT, "scripts/lib/stack.mjs")).href)) as {
    startStack: StartStack;
  };
  let stack: RunningStack;
  try {
    stack = await startStack({
      databaseUrl: db.url,
      redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      env: {
        SENDGRID_API_BASE_URL: receiver.url,
        WEB_DIST_DIR: webDist,
        LEAD_RATE_LIMIT: "1000",
        MAIL_SETTINGS_CACHE_MS: "0",
        LOG_LEVEL: process.env.STACK_LOG_LEVEL ?? "warn",
      },
      logDir: join(runDir, "logs"),
    });
  } catch (error) {
    await receiver.close();
    await db.drop();
    throw error;
  }
  // The runner ends when its own work is done; the stack's processes must not keep it alive.
  for (const { child } of stack.processes) {
    child.unref();
    child.stdout?.unref();
    child.stderr?.unref();
  }
  const killAll = () => stack.processes.forEach(({ child }) => child.kill("SIGTERM"));
  process.once("exit", killAll);

  const password = `e2e-${randomBytes(12).toString("base64url")}`;
  const created = spawnSync(process.execPath, ["services/gateway/dist/admin.js", "create", ADMIN_USERNAME], {
    input: `${password}\n`,
    env: { ...process.env, ...stack.env, DATABASE_URL: db.url },
    encoding: "utf8",
  });
  if (created.status !== 0) throw new Error(`admin create failed: ${created.stderr || created.stdout}`);

  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  // The database is dropped WITH (FORCE) at the end; a connection still closing then must not crash the run.
  sql.on("error", () => undefined);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const contexts: BrowserContext[] = [];

  return {
    baseUrl: stack.url,
    password,
    receiver,
    sql,
    browser,
    async open(path, { viewport = DESKTOP, before, waitUntil = "networkidle" } = {}) {
      const context = await browser.newContext({
        viewport,
        locale: "nl-NL",
        timezoneId: "Europe/Amsterdam",
        // Tracking ignores bots, and headless Chromium names itself one.
        userAgent: DESKTOP_CHROME_UA,
      });
      contexts.push(context);
      context.setDefaultTimeout(10_000);
      // Nothing leaves the machine.
      await context.route(
        (url) => url.host !== new URL(stack.url).host,
        (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: "" }),
      );
      await before?.(context);
      const page = await context.newPage();
      // Pre-rendered pages are interactive once hydrated and their first API calls are answered.
      await page.goto(new URL(path, stack.url).href, { waitUntil });
      return { page, context };
    },
    async close() {
      await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
      await browser.close().catch(() => undefined);
      await sql.end().catch(() => undefined);
      await stack.stop();
      process.removeListener("exit", killAll);
      await receiver.close();
      await db.drop().catch(() => undefined);
      rmSync(webDist, { recursive: true, force: true });
    },
  };
}
