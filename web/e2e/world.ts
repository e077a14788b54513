// The admin stack of one worker: the REAL built stack (gateway and services from services/*/dist)
// on a database of its own, an admin account, and the local SendGrid and Meta Conversions API
// receivers as the only fakes. fixtures.ts starts it on a worker's first admin test and stops it
// with the worker.
import { spawnSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "@playwright/test";
import {
  createTestDatabase,
  startAdPlatformReceiver,
  startGoogleReceiver,
  startSendgridReceiver,
  type AdPlatformReceiver,
  type GoogleReceiver,
  type SendgridReceiver,
  type TestDatabase,
} from "@lease/platform/testing";
import { startStack } from "../../scripts/lib/stack.mjs";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const ADMIN_USERNAME = "admin";
const DESKTOP = { width: 1280, height: 800 };
const DESKTOP_CHROME_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

export interface WorldOpenOptions {
  viewport?: { width: number; height: number };
  /** Runs on the new context before the first navigation (routes, cookies). */
  before?: (context: BrowserContext) => Promise<void>;
  /**
   * Default networkidle; "load" at the load event (the caller then waits for what it needs);
   * "commit" as soon as navigation starts (to see loading states).
   */
  waitUntil?: "networkidle" | "load" | "commit";
  /** Cookies to start with (a saved admin session). */
  storageState?: BrowserContextOptions["storageState"];
  /**
   * The visitor's own address (X-Forwarded-For, which this stack believes from the local machine):
   * the admission of new campaign values counts per address block, and every visit of a worker's
   * stack otherwise comes from 127.0.0.1 (see visitorAddress in admin/helpers.ts).
   */
  address?: string;
}

export interface AdminWorld {
  baseUrl: string;
  password: string;
  receiver: SendgridReceiver;
  /** The Meta Conversions API (META_API_BASE_URL): what the conversions service sent; down() and up(). */
  meta: AdPlatformReceiver;
  /** Google's OAuth token endpoint and Data Manager API (GOOGLE_*), checking the JWT's signature. */
  google: GoogleReceiver;
  /** A service account's JSON key file whose public key the Google stand-in knows. */
  googleKeyFile: string;
  sql: pg.Pool;
  browser: Browser;
  /** A fresh browser context (own cookies) on a page of the site, closed after the test. */
  open(path: string, options?: WorldOpenOptions): Promise<{ page: Page; context: BrowserContext }>;
  /** A plain context (no routes: the HTTP cache on), closed after the test. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /**
   * A fresh context signed in as the admin, on a loaded /admin with the welcome line shown and no
   * notice open, recorded in `contexts`. The first call signs in through the login form; later ones
   * start with that session's cookie (never its local storage) while the server still accepts it,
   * and sign in through the form again when it does not (a test logged it out).
   */
  signedInIn(contexts: BrowserContext[]): Promise<{ page: Page; context: BrowserContext }>;
  /** signedInIn(), the context closed after the test. */
  signedIn(): Promise<{ page: Page; context: BrowserContext }>;
  /** open(), recording the context in `contexts` (the fixture closes them after each test). */
  openIn(
    contexts: BrowserContext[],
    path: string,
    options?: WorldOpenOptions,
  ): Promise<{ page: Page; context: BrowserContext }>;
  close(): Promise<void>;
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

export async function startWorld(browser: Browser, label: string): Promise<AdminWorld> {
  requireBuilt();
  // stack.mjs starts services/<name>/dist by relative path.
  process.chdir(REPO_ROOT);
  const runDir = join(REPO_ROOT, ".tmp", "e2e", `admin-${label}-${randomBytes(3).toString("hex")}`);
  mkdirSync(runDir, { recursive: true });
  // A private copy of the built site, so a concurrent web build cannot change it mid-run.
  const webDist = join(runDir, "web-dist");
  cpSync(join(REPO_ROOT, "web", "dist"), webDist, { recursive: true });

  const db: TestDatabase = await createTestDatabase(`admine2e${label}`);
  const receiver = await startSendgridReceiver();
  const meta = await startAdPlatformReceiver("meta");
  const googleKey = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const googleAccount = `conversies-${label}@lease-e2e.iam.gserviceaccount.com`;
  const google = await startGoogleReceiver({
    serviceAccount: {
      clientEmail: googleAccount,
      publicKeyPem: googleKey.publicKey.export({ type: "spki", format: "pem" }).toString(),
    },
  });
  const googleKeyFile = JSON.stringify({
    type: "service_account",
    project_id: "lease-e2e",
    private_key: googleKey.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    client_email: googleAccount,
  });
  let stack: Awaited<ReturnType<typeof startStack>>;
  try {
    stack = await startStack({
      databaseUrl: db.url,
      redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      env: {
        SENDGRID_API_BASE_URL: receiver.url,
        META_API_BASE_URL: meta.url,
        GOOGLE_CONVERSIONS_API_BASE_URL: google.url,
        GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl,
        WEB_DIST_DIR: webDist,
        // A test's visitor may come from an address of its own (WorldOpenOptions.address).
        TRUSTED_PROXIES: "127.0.0.1,::1",
        LEAD_RATE_LIMIT: "1000",
        MAIL_SETTINGS_CACHE_MS: "0",
        // A lead past its deadline is announced within a second (owners.e2e.ts).
        OVERDUE_SCAN_MS: "1000",
        // npm test runs vitest beside the browser tests: their stacks share max_connections.
        DATABASE_POOL_MAX: "4",
        LOG_LEVEL: process.env.STACK_LOG_LEVEL ?? "warn",
      },
      logDir: join(runDir, "logs"),
    });
  } catch (error) {
    await receiver.close();
    await meta.close();
    await google.close();
    await db.drop();
    throw error;
  }
  const stackUrl = stack.url as string;
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
  const untracked: BrowserContext[] = [];

  const openIn: AdminWorld["openIn"] = async (
    contexts,
    path,
    { viewport = DESKTOP, before, waitUntil = "networkidle", storageState, address } = {},
  ) => {
    const context = await browser.newContext({
      viewport,
      storageState,
      extraHTTPHeaders: address ? { "x-forwarded-for": address } : undefined,
      locale: "nl-NL",
      timezoneId: "Europe/Amsterdam",
      // Tracking ignores bots, and headless Chromium names itself one.
      userAgent: DESKTOP_CHROME_UA,
    });
    contexts.push(context);
    // 20 s: on a CI host running the static checks, vitest and these tests on two cores, a server's
    // answer (a quote, a spend import) has taken over 10 s; a broken page still fails well within the test.
    context.setDefaultTimeout(20_000);
    // Nothing leaves the machine.
    await context.route(
      (url) => url.host !== new URL(stackUrl).host,
      (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: "" }),
    );
    await before?.(context);
    const page = await context.newPage();
    // Pre-rendered pages are interactive once hydrated and their first API calls are answered.
    await page.goto(new URL(path, stackUrl).href, { waitUntil });
    return { page, context };
  };

  let sessionCookies: Awaited<ReturnType<BrowserContext["cookies"]>> | undefined;
  const signedInIn: AdminWorld["signedInIn"] = async (contexts) => {
    if (sessionCookies) {
      // Not networkidle: the welcome line (or the login form) below is the sign that it is ready.
      const opened = await openIn(contexts, "/admin", {
        storageState: { cookies: sessionCookies, origins: [] },
        waitUntil: "load",
      });
      const welcome = opened.page.getByTestId("welkom");
      await welcome.or(opened.page.getByLabel("Gebruikersnaam")).first().waitFor();
      if (await welcome.isVisible()) return opened;
      await opened.context.close();
    }
    const opened = await openIn(contexts, "/admin-login");
    // A worker's first page of a freshly started stack may take long on a loaded machine (its first
    // sign-in failed after 20 s in replies.e2e.ts): wait for the form itself, longer.
    await opened.page.getByLabel("Gebruikersnaam").waitFor({ timeout: 60_000 });
    await opened.page.getByLabel("Gebruikersnaam").fill(ADMIN_USERNAME);
    await opened.page.getByLabel("Wachtwoord").fill(password);
    await opened.page.getByRole("button", { name: "Inloggen" }).click();
    await opened.page.getByTestId("welkom").waitFor();
    const close = opened.page.getByRole("button", { name: "Melding sluiten" });
    // The notice may close itself between the check and the click (as in helpers' dismissNotice).
    if (await close.isVisible()) await close.click({ timeout: 2000 }).catch(() => undefined);
    await close.waitFor({ state: "hidden" });
    sessionCookies = await opened.context.cookies();
    return opened;
  };

  return {
    baseUrl: stackUrl,
    password,
    receiver,
    meta,
    google,
    googleKeyFile,
    sql,
    browser,
    openIn,
    signedInIn,
    signedIn: () => signedInIn(untracked),
    open: (path, options) => openIn(untracked, path, options),
    async newContext(options) {
      const context = await browser.newContext(options);
      untracked.push(context);
      return context;
    },
    async close() {
      await Promise.all(untracked.map((context) => context.close().catch(() => undefined)));
      await sql.end().catch(() => undefined);
      await stack.stop();
      process.removeListener("exit", killAll);
      await receiver.close();
      await meta.close();
      await google.close();
      await db.drop().catch(() => undefined);
      rmSync(webDist, { recursive: true, force: true });
    },
  };
}
