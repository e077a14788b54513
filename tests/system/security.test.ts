import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES, INTERNAL_ROUTES, UNMATCHED_ROUTE, metricRoute } from "@lease/contracts";
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

  it("serves metrics only on the metrics listeners, with route labels bounded by the route table", async () => {
    const all = { gateway: stack.gateway, ...stack.services };
    for (const [name, svc] of Object.entries(all)) {
      const open = await fetch(`${svc.url}/metrics`);
      expect({ name, status: open.status }).toEqual({ name, status: 404 });
      expect(await open.text()).not.toMatch(/http_requests_total|process_cpu/);
      const listener = await fetch(svc.metricsUrl);
      expect({ name, status: listener.status }).toEqual({ name, status: 200 });
      expect(await listener.text()).toMatch(/http_requests_total|process_cpu/);
    }

    // Made-up ids on a proxied admin route: one series for the template, not one per id.
    const series = async () =>
      (await (await fetch(stack.gateway.metricsUrl)).text())
        .split("\n")
        .filter((l) => l.startsWith("http_request")).length;
    const probe = () =>
      fetch(`${stack.gateway.url}/api/admin/lease-requests/${crypto.randomUUID()}`).then((r) => r.status);
    expect(await probe()).toBe(401);
    const before = await series();
    const statuses = await Promise.all(Array.from({ length: 20 }, probe));
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect(await series()).toBe(before);
    await fetch(`${stack.gateway.url}/api/${crypto.randomUUID()}`);
    await fetch(`${stack.gateway.url}/${crypto.randomUUID()}`);

    const allowed = new Set([...API_ROUTES, ...INTERNAL_ROUTES].map((r) => metricRoute(r.path)));
    allowed.add(UNMATCHED_ROUTE);
    for (const [name, svc] of Object.entries(all)) {
      const routes = [...(await (await fetch(svc.metricsUrl)).text()).matchAll(/route="([^"]*)"/g)].map(
        (m) => m[1]!,
      );
      expect({ name, unknown: routes.filter((r) => !allowed.has(r)) }).toEqual({ name, unknown: [] });
    }
  });
});
