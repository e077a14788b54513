// The service's configuration (config.ts), checked at start.
import { describe, expect, it } from "vitest";
import { ConfigError } from "@lease/platform";
import { testEnv } from "@lease/platform/testing";
import { startSettings } from "./service";

describe("configuration", () => {
  it("refuses to start without a 32-byte SETTINGS_ENCRYPTION_KEY, naming the variable", async () => {
    for (const key of [undefined, "", Buffer.alloc(16, 7).toString("base64"), "not base64 at all!"]) {
      const err = await startSettings(testEnv({ SETTINGS_ENCRYPTION_KEY: key })).catch((e: Error) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain("SETTINGS_ENCRYPTION_KEY");
    }
  });
});
