// What other services read from settings (internal.ts), with the internal token.
import { describe, expect, it } from "vitest";
import { useSettingsHarness } from "../testing";

const API_KEY = "SG.another-test-key-0123456789abcdef.QRST";

const h = useSettingsHarness();

const save = (body: unknown) =>
  h.api("/api/admin/company-settings", { method: "PUT", body, cookie: h.cookie });

describe("GET /internal/mail-settings", () => {
  it("refuses callers without the internal token", async () => {
    expect((await h.api("/internal/mail-settings")).status).toBe(403);
    const wrong = await h.api("/internal/mail-settings", { headers: { "x-internal-token": "x".repeat(40) } });
    expect(wrong.status).toBe(403);
  });

  it("gives the mailer the decrypted key, the sender and the public company details", async () => {
    await save({ sendgridApiKey: API_KEY, fromEmailAddress: "info@lease.nl", companyName: "Lease BV" });
    const res = await h.api("/internal/mail-settings", {
      headers: { "x-internal-token": h.env.INTERNAL_TOKEN! },
    });
    expect(await res.json()).toMatchObject({
      sendgridApiKey: API_KEY,
      fromEmailAddress: "info@lease.nl",
      company: { companyName: "Lease BV" },
    });
  });
});
