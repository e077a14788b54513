import { describe, expect, it } from "vitest";
import {
  API_ROUTES,
  INTERNAL_ROUTES,
  UNMATCHED_ROUTE,
  createRouteMatcher,
  isWebhookPath,
  loggedPath,
  metricRoute,
} from "./routes";
import { CONVERSIONS_ROUTES } from "./routes/conversions";
import { GATEWAY_ROUTES } from "./routes/gateway";
import { LEADS_ROUTES } from "./routes/leads";
import { MAILER_ROUTES } from "./routes/mailer";
import { SETTINGS_ROUTES } from "./routes/settings";
import { TRACKING_ROUTES } from "./routes/tracking";

describe("the route tables", () => {
  const files = {
    gateway: GATEWAY_ROUTES,
    leads: LEADS_ROUTES,
    settings: SETTINGS_ROUTES,
    conversions: CONVERSIONS_ROUTES,
    tracking: TRACKING_ROUTES,
    mailer: MAILER_ROUTES,
  };

  it("declare each service's routes in routes/<service>.ts, and API_ROUTES is all of them once", () => {
    for (const [service, routes] of Object.entries(files))
      for (const route of routes) expect(route.service, `${route.method} ${route.path}`).toBe(service);
    const joined = Object.values(files).flat();
    expect(API_ROUTES).toEqual(joined);
    const keys = API_ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("route templates for metric labels", () => {
  const routeOf = createRouteMatcher();

  it("maps every route of the tables to its own template", () => {
    for (const r of [...API_ROUTES, ...INTERNAL_ROUTES]) {
      const concrete = r.path.replace(/\{[^}]+\}/g, "2b1c9a52-6f0e-4c8e-9d4a-0c7c1f3e5a11");
      expect(routeOf(concrete), r.path).toBe(metricRoute(r.path));
    }
  });

  it("prefers a literal path over a template that would also match it", () => {
    expect(routeOf("/api/admin/lease-requests/export.csv")).toBe("/api/admin/lease-requests/export.csv");
    expect(routeOf("/api/admin/lease-requests/abc")).toBe("/api/admin/lease-requests/:id");
    expect(routeOf("/api/admin/lease-requests/abc/status")).toBe("/api/admin/lease-requests/:id/status");
  });

  it("gives anything else the single value 'unmatched'", () => {
    for (const path of [
      "/",
      "/metrics",
      "/api/admin/lease-requests/a/b/c",
      "/api/admin/lease-requests/",
      "/api/nope",
      "/api/contact/extra",
      "/internal/track/batch/x",
    ])
      expect(routeOf(path), path).toBe(UNMATCHED_ROUTE);
  });
});

describe("paths as logs show them", () => {
  const secret = "q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c";

  it("shows a secret URL as its route's template, right or wrong, in any letter case or shape", () => {
    const template = "/api/google-ads/conversions/{secret}.csv";
    for (const path of [
      `/api/google-ads/conversions/${secret}.csv`,
      `/API/Google-Ads/Conversions/${secret}.csv`,
      `/api/google-ads/conversions/${secret}`,
      `/api/google-ads/conversions/${secret}.csv/extra`,
    ])
      expect(loggedPath(path)).toBe(template);
  });

  it("shows the Inbound Parse URL as its template, never its secret", () => {
    for (const path of [`/api/inbound/sendgrid/${secret}`, `/API/Inbound/SendGrid/${secret}x`])
      expect(loggedPath(path)).toBe("/api/inbound/sendgrid/{secret}");
  });

  it("leaves every other path as it came", () => {
    for (const path of ["/api/admin/google-ads/conversions.csv", "/api/admin/lease-requests/abc", "/"])
      expect(loggedPath(path)).toBe(path);
  });
});

describe("webhook routes", () => {
  it("knows the provider's webhooks and nothing else", () => {
    expect(isWebhookPath("/api/inbound/sendgrid/abc")).toBe(true);
    expect(isWebhookPath("/api/admin/email-settings/inbound-url")).toBe(false);
    expect(isWebhookPath("/api/lease-requests")).toBe(false);
    expect(isWebhookPath("/api/inbound/sendgrid/abc/extra")).toBe(false);
  });
});
