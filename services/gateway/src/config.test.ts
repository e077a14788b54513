import { describe, expect, it } from "vitest";
import { loadConfig } from "@lease/platform";
import { testEnv } from "@lease/platform/testing";
import { gatewayConfigSchema } from "./config";

// PUBLIC_ORIGIN is what the CSRF and WebSocket Origin checks compare with; without it they fall
// back to the Host header a client writes itself. Production must not start that way.

const env = testEnv({
  LEADS_URL: "http://127.0.0.1:8081",
  SETTINGS_URL: "http://127.0.0.1:8082",
  TRACKING_URL: "http://127.0.0.1:8083",
  MAILER_URL: "http://127.0.0.1:8084",
});

describe("gateway config", () => {
  it("refuses to start in production without PUBLIC_ORIGIN, naming the variable and why", () => {
    expect(() => loadConfig(gatewayConfigSchema, { ...env, NODE_ENV: "production" })).toThrowError(
      /PUBLIC_ORIGIN is required with NODE_ENV=production .*Host header/,
    );
    const origin = "https://lease.example.nl";
    const config = loadConfig(gatewayConfigSchema, { ...env, NODE_ENV: "production", PUBLIC_ORIGIN: origin });
    expect(config.PUBLIC_ORIGIN).toBe(origin);
    // A developer's machine may still go without.
    expect(
      loadConfig(gatewayConfigSchema, { ...env, NODE_ENV: "development" }).PUBLIC_ORIGIN,
    ).toBeUndefined();
  });
});
