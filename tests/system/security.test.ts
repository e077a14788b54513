import { fileURLToPath } from "node:url";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES } from "@lease/contracts";
import { runProcess } from "@lease/platform/testing";
import { startFullStack, type FullStack } from "./stack";

// A security check of the running stack, through the gateway as a browser or an attacker sees it.

let stack: FullStack;
beforeAll(async () => {
  stack = await startFullStack();
}, 60_000);
afterAll(() => stack?.stop());

const REQUIRED_HEADERS: Record<string, RegExp> = {
  "content-security-policy": /frame-ancestors 'none'/,
  "x-content-type-options": /^nosniff$/,
  "referrer-policy": /^strict-origin-when-cross-origin$/,
};

describe("security of the running stack", () => {
  it("sets the security headers on every kind of answer", async () => {
    const cookie = await stack.adminCookie();
    const answers = await Promise.all([
      fetch(`${stack.gateway.url}/healthz`), // liveness
      fetch(`${stack.gateway.url}/api/company-settings`), // public API
      fetch(`${stack.gateway.url}/api/admin/lease-requests`), // 401
      fetch(`${stack.gateway.url}/api/admin/lease-requests`, { headers: { cookie } }), // admin 200
      fetch(`${stack.gateway.url}/api/nope`), // JSON 404
      fetch(`${stack.gateway.url}/api/lease-requests`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "https://evil.example" },
        body: "{}",
      }), // 403
      fetch(`${stack.gateway.url}/api/lease-requests`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{",
      }), // 400
      fetch(`${stack.gateway.url}/bestaat-niet`), // page 404
      fetch(`${stack.gateway.url}/`), // page
    ]);
    for (const res of answers) {
      for (const [name, pattern] of Object.entries(REQUIRED_HEADERS)) {
        expect({ url: res.url, status: res.status, [name]: res.headers.get(name) }).toEqual({
          url: res.url,
          status: res.status,
          [name]: expect.stringMatching(pattern),
        });
      }
    }
    expect(answers[2]!.status).toBe(401);
    expect(answers[3]!.headers.get("cache-control")).toBe("no-store");
  });

  it("refuses every admin route without a session", async () => {
    for (const route of API_ROUTES.filter((r) => r.auth === "admin")) {
      const path = route.path.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000");
      const res = await fetch(`${stack.gateway.url}${path}`, {
        method: route.method,
        headers: { "content-type": "application/json", origin: stack.origin },
        body: route.method === "GET" || route.method === "DELETE" ? undefined : "{}",
      });
      expect({ route: `${route.method} ${route.path}`, status: res.status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 401,
      });
    }
  });

  it("holds the login lockout under 1,000 parallel wrong passwords", async () => {
    const attempts = await Promise.all(
      Array.from({ length: 1000 }, () =>
        fetch(`${stack.gateway.url}/api/admin/login`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: stack.origin },
          body: JSON.stringify({ username: "admin", password: "definitely-not-the-password" }),
        }).then((r) => r.status),
      ),
    );
    const tally = attempts.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});
    expect(tally[200]).toBeUndefined();
    expect(tally[401]).toBeLessThanOrEqual(5);
    expect((tally[401] ?? 0) + (tally[429] ?? 0)).toBe(1000);
  }, 120_000);

  it("refuses a cross-origin or sessionless /ws upgrade", async () => {
    const cookie = await stack.adminCookie();
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`${stack.gateway.url.replace("http", "ws")}/ws`, { headers });
        ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
        ws.once("open", () => {
          ws.close();
          resolve(101);
        });
        ws.once("error", () => resolve(0));
      });
    expect(await status({ cookie, origin: "https://evil.example" })).toBe(403);
    expect(await status({ origin: stack.origin })).toBe(401);
    expect(await status({ cookie, origin: stack.origin })).toBe(101);
  });
});

/** `npm run admin -- ARGS` as staff run it (the TypeScript entry through tsx), against this stack. */
const adminCli = (args: string[], stdin: string) =>
  runProcess(process.execPath, ["--import", "tsx", "services/gateway/src/cli/admin.ts", ...args], {
    cwd: fileURLToPath(new URL("../../", import.meta.url)),
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: stack.db.url,
      REDIS_URL: stack.env.REDIS_URL,
      REDIS_PREFIX: stack.env.REDIS_PREFIX,
    },
    stdin,
  });

describe("sessions end with the password", () => {
  it("reset-password: the old cookie gets 401 from the gateway and the services, an open /ws closes with 4401 at once", async () => {
    const created = await adminCli(["create", "eigenaar"], "oud-wachtwoord-2026\n");
    expect(created.code, created.err).toBe(0);
    const login = await fetch(`${stack.gateway.url}/api/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: stack.origin, "x-forwarded-for": "192.0.2.77" },
      body: JSON.stringify({ username: "eigenaar", password: "oud-wachtwoord-2026" }),
    });
    expect(login.status).toBe(200);
    const cookie = /admin_session=[^;]+/.exec(login.headers.get("set-cookie") ?? "")![0];
    const adminCalls = () =>
      Promise.all([
        fetch(`${stack.gateway.url}/api/admin/me`, { headers: { cookie } }),
        fetch(`${stack.gateway.url}/api/admin/lease-requests`, { headers: { cookie } }),
        // The services check sessions themselves too: straight to their own ports.
        fetch(`${stack.services.leads.url}/api/admin/lease-requests`, { headers: { cookie } }),
        fetch(`${stack.services.settings.url}/api/admin/company-settings`, { headers: { cookie } }),
      ]).then((answers) => answers.map((r) => r.status));
    expect(await adminCalls()).toEqual([200, 200, 200, 200]);

    const ws = new WebSocket(`${stack.gateway.url.replace("http", "ws")}/ws`, {
      headers: { cookie, origin: stack.origin },
    });
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    const closed = new Promise<{ code: number; at: number }>((resolve) =>
      ws.once("close", (code) => resolve({ code, at: Date.now() })),
    );

    const reset = await adminCli(["reset-password", "eigenaar"], "nieuw-wachtwoord-2026\n");
    expect(reset.code, reset.err).toBe(0);
    const resetAt = Date.now();
    expect(await adminCalls()).toEqual([401, 401, 401, 401]);
    // WS_SESSION_RECHECK_MS is 30 s here: only the announcement can close it this soon.
    const { code, at } = await closed;
    expect(code).toBe(4401);
    expect(at - resetAt).toBeLessThan(3000);
  }, 30_000);
});
