// A small browser-test harness: tests register with test(), runner.ts runs them one by one against
// E2E_BASE_URL (a running gateway) or, when unset, against the real stack that runner.ts starts.
import type { PublicCompanySettings, ThemeValues } from "@lease/contracts";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 375, height: 740 };

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

export const DESKTOP_CHROME_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

export interface E2E {
  baseUrl: string;
  /** Queries the stack's PostgreSQL (null when E2E_BASE_URL points at a stack started elsewhere). */
  sql: Sql | null;
  open(path: string, options?: OpenOptions): Promise<{ page: Page; context: BrowserContext }>;
  /** Requests of this test to hosts other than the site; they were answered locally, never sent. */
  externalRequests: string[];
}

const errorsByPage = new WeakMap<Page, string[]>();

export type Sql = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export type TestFn = (t: E2E) => Promise<void>;
export const registeredTests: { name: string; fn: TestFn; file: string }[] = [];
let currentFile = "";

export function setCurrentFile(file: string): void {
  currentFile = file;
}

export function test(name: string, fn: TestFn): void {
  registeredTests.push({ name, fn, file: currentFile });
}

/** Cleanups that run once after the selected tests, whichever of them ran (filters skip some). */
export const cleanups: (() => Promise<void>)[] = [];
export function afterAll(fn: () => Promise<void>): void {
  cleanups.push(fn);
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

export function assertEqual<T>(actual: T, expected: T, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

/** Polls until check() returns a truthy value. */
export async function eventually<T>(check: () => Promise<T> | T, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

export function createE2E(
  browser: Browser,
  baseUrl: string,
  sql: Sql | null,
  contexts: BrowserContext[],
): E2E {
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

/** Page errors (uncaught exceptions, hydration mismatches, CSP violations) seen so far. */
export function pageErrors(page: Page): string[] {
  return errorsByPage.get(page) ?? [];
}

export function isApiRequest(request: Request, path: string, method = "POST"): boolean {
  return request.method() === method && new URL(request.url()).pathname === path;
}
