import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { serviceMainArgs } from "../../../scripts/lib/ts-entry.mjs";
import { ConfigError, baseConfigSchema, loadConfig } from "./config";

const valid = {
  PORT: "0",
  METRICS_PORT: "0",
  DATABASE_URL: "postgres://postgres@127.0.0.1:5432/x",
  REDIS_URL: "redis://127.0.0.1:6379",
  JWT_SECRET: "a-long-random-secret-value-0123456789-abcdef",
  INTERNAL_TOKEN: "another-long-random-token-0123456789-xyz",
};

describe("config from the environment", () => {
  it("parses a complete environment with defaults", () => {
    const config = loadConfig(baseConfigSchema, valid);
    expect(config.REDIS_PREFIX).toBe("lease");
    expect(config.BODY_LIMIT_BYTES).toBe(16 * 1024);
  });

  it("names a missing variable", () => {
    const { DATABASE_URL: _omit, ...env } = valid;
    expect(() => loadConfig(baseConfigSchema, env)).toThrowError(/DATABASE_URL/);
  });

  it("refuses a short or weak secret and says which one", () => {
    expect(() => loadConfig(baseConfigSchema, { ...valid, JWT_SECRET: "short" })).toThrowError(
      /JWT_SECRET must be at least 32/,
    );
    expect(() => loadConfig(baseConfigSchema, { ...valid, INTERNAL_TOKEN: "a".repeat(40) })).toThrowError(
      /INTERNAL_TOKEN is too weak/,
    );
    try {
      loadConfig(baseConfigSchema, { ...valid, JWT_SECRET: undefined });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toEqual([expect.stringContaining("JWT_SECRET")]);
    }
  });

  it("stops a service process with one line naming the variable and a non-zero exit", async () => {
    const r = spawnSync(process.execPath, await serviceMainArgs("leads"), {
      env: { PATH: process.env.PATH, ...valid, JWT_SECRET: "" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: .*JWT_SECRET/);
  });

  it("stops with one line when Postgres is unreachable at start", async () => {
    const r = spawnSync(process.execPath, await serviceMainArgs("leads"), {
      env: { PATH: process.env.PATH, ...valid, DATABASE_URL: "postgres://postgres@127.0.0.1:1/x" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/leads failed to start: cannot reach PostgreSQL/),
    ]);
  });
});
