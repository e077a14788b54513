import { describe, expect, it } from "vitest";
import { loadConfig } from "@lease/platform";
import { testEnv } from "@lease/platform/testing";
import { trackingConfigSchema } from "./config";

describe("tracking config", () => {
  it("refuses to start in production without PUBLIC_ORIGIN (the /ws Origin check would trust Host)", () => {
    expect(() => loadConfig(trackingConfigSchema, testEnv({ NODE_ENV: "production" }))).toThrowError(
      /PUBLIC_ORIGIN is required with NODE_ENV=production/,
    );
    const env = testEnv({ NODE_ENV: "production", PUBLIC_ORIGIN: "https://lease.example.nl" });
    expect(loadConfig(trackingConfigSchema, env).PUBLIC_ORIGIN).toBe("https://lease.example.nl");
  });
});
