// The fixtures every browser test gets (import { test, expect } from "./fixtures"):
//   site   the public site on the run's stack (global-setup.ts): open() a page in a fresh context
//          with consent, company and theme overrides; sql on that stack's database
//   world  the admin stack of this worker (world.ts): the real built services with an admin
//          account and the local SendGrid and Meta receivers; open() a page in a fresh context
//   signedIn  a fresh context already signed in as that admin, on /admin
// Every context a test opens is closed after it, so no test sees another's pages or cookies.
import { test as base, type Browser, type BrowserContext, type Page, type Request } from "@playwright/test";
import pg from "pg";
import type { PublicCompanySettings, ThemeValues } from "@lease/contracts";
import { ADMIN_USERNAME, startWorld, type AdminWorld } from "./world";

export { expect } from "@playwright/test";
export { waitFor } from "@lease/platform/testing";
export { ADMIN_USERNAME, type AdminWorld };

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 375, height: 740 };
export const DESKTOP_CHROME_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

export interface OpenOptions {
  viewport?: { width: number; height: number };
  javaScriptEnabled?: boolean;
  /** Cookie choice before the visit; "none" leaves the banner open. Default: necessary cookies only. */
  consent?: "none" | { analytics: boolean; marketing: boolean };
  /** Overrides of GET /api/company-settings for this visit (works against any backend). */
  company?: Partial<PublicCompanySettings>;
  /** Overrides of GET /api/theme-settings for this visit. */
  theme?: Partial<ThemeValues>;
  /** A browser's own user agent: headless Chromium's is (rightly) ignored by visitor tracking. */
  userAgent?: string;
  /**
   * Holds the site's scripts until this settles, so a test can act on the pre-rendered page before
   * React hydrates it; open() then returns once the HTML is in, not at the load event.
   */
  holdScriptsUntil?: Promise<void>;
}

export type Sql = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export interface Site {
  baseUrl: string;
  /** Queries the stack's PostgreSQL (null when E2E_BASE_URL points at a stack started elsewhere). */
  sql: Sql | null;
  open(path: string, options?: OpenOptions): Promise<{ page: Page; context: BrowserContext }>;
  /** Requests of this test to hosts other than the site; they were answered locally, never sent. */
  externalRequests: string[];
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

export function assertEqual<T>(actual: T, expected: T, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

const errorsByPage = new WeakMap<Page, string[]>();

/** Page errors (uncaught exceptions, hydration mismatches, CSP violations) seen so far. */
export function pageErrors(page: Page): string[] {
  return errorsByPage.get(page) ?? [];
}

export function isApiRequest(request: Request, path: string, method = "POST"): boolean {
  return request.method() === method && new URL(request.url()).pathname === path;
}

function createSite(browser: Browser, baseUrl: string, sql: Sql | null, contexts: BrowserContext[]): Site {
  const base = new URL(baseUrl);
  const externalRequests: string[] = [];
  return {
    baseUrl,
    sql,
    externalRequests,
    async open(path, options = {}) {
      const context = await browser.newContext({
        viewport: options.viewport ?? DESKTOP,
        javaScriptEnabled: options.javaScriptEnabled ?? true,
        locale: "nl-NL",
        ...(options.userAgent ? { userAgent: options.userAgent } : {}),
      });
      contexts.push(context);
      const consent = options.consent ?? { analytics: false, marketing: false };
      if (consent !== "none") {
        await context.addCookies([
          {
            name: "cookie_consent",
            value: `v1.a${consent.analytics ? 1 : 0}.m${consent.marketing ? 1 : 0}`,
            url: base.origin,
          },
        ]);
      }
      // Nothing leaves the machine: every other host is answered here with an empty script.
      await context.route(
        (url) => url.host !== base.host,
        (route) => {
          externalRequests.push(route.request().url());
          return route.fulfill({ status: 200, contentType: "text/javascript", body: "" });
        },
      );
      if (options.company) {
        const overrides = options.company;
        await context.route("**/api/company-settings", async (route) => {
          const response = await route.fetch();
          const settings = (await response.json()) as PublicCompanySettings;
          await route.fulfill({ response, json: { ...settings, ...overrides } });
        });
      }
      if (options.theme) {
        const overrides = options.theme;
        await context.route("**/api/theme-settings", async (route) => {
          const response = await route.fetch();
          const theme = (await response.json()) as ThemeValues;
          await route.fulfill({ response, json: { ...theme, ...overrides } });
        });
      }
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => {
        if (message.type() === "error" && /hydrat|Content Security Policy/i.test(message.text())) {
          errors.push(message.text());
        }
      });
      errorsByPage.set(page, errors);
      const held = options.holdScriptsUntil;
      if (held) {
        await page.route(
          (url) => url.host === base.host && url.pathname.endsWith(".js"),
          async (route) => {
            await held;
            await route.continue();
          },
        );
      }
      await page.goto(new URL(path, baseUrl).href, held ? { waitUntil: "commit" } : {});
      return { page, context };
    },
  };
}

interface TestFixtures {
  site: Site;
  world: AdminWorld;
  /** A fresh context signed in as the admin, on a loaded /admin with the welcome line shown. */
  signedIn: { page: Page; context: BrowserContext };
}
interface AdminStack {
  /** The worker's admin stack, started on the first call. */
  get(): Promise<AdminWorld>;
}
interface WorkerFixtures {
  siteSql: Sql | null;
  adminStack: AdminStack;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  siteSql: [
    // Playwright reads a fixture's dependencies from this destructuring: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const url = process.env.E2E_DATABASE_URL;
      if (!url) return use(null);
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      pool.on("error", () => undefined);
      await use(async (text, params) => (await pool.query(text, params)).rows);
      await pool.end();
    },
    { scope: "worker" },
  ],
  site: async ({ browser, siteSql }, use) => {
    const contexts: BrowserContext[] = [];
    await use(createSite(browser, process.env.E2E_BASE_URL!, siteSql, contexts));
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
  },
  // One admin stack per worker, started when the worker's first admin test needs it (a worker runs
  // its files one after another). With one per file instead, eight starts (services, a database,
  // an admin, a copy of web/dist) made the browser tests 299 CPU-seconds against 262. So a test
  // counts from what it finds (its own leads, e-mails and log entries, a count before and after),
  // never from an empty stack. A failed test ends its worker; the next worker starts a fresh stack.
  adminStack: [
    async ({ browser }, use, workerInfo) => {
      let world: Promise<AdminWorld> | undefined;
      await use({ get: () => (world ??= startWorld(browser, `w${workerInfo.workerIndex}`)) });
      if (world) await (await world).close();
    },
    { scope: "worker" },
  ],
  world: [
    async ({ adminStack: stack }, use) => {
      const adminStack = await stack.get();
      const contexts: BrowserContext[] = [];
      await use({
        ...adminStack,
        open: (path, options) => adminStack.openIn(contexts, path, options),
        async newContext(options) {
          const context = await adminStack.browser.newContext(options);
          contexts.push(context);
          return context;
        },
        signedIn: () => adminStack.signedInIn(contexts),
      });
      await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    },
    { timeout: 120_000 },
  ],
  signedIn: async ({ world }, use) => {
    await use(await world.signedIn());
  },
});
