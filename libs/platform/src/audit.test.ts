import { describe, expect, it } from "vitest";
import { JOBS } from "@lease/contracts";
import { auditEvent } from "./audit";

// An audit entry as every service builds it (stored in its outbox with the change: queueAuditEvents;
// services/settings/src/audit-outbox.test.ts, tests/system/audit-log.test.ts).

describe("audit entries", () => {
  it("builds an entry the catalog accepts, with a fresh event id and the moment", () => {
    const a = auditEvent("admin", "settings.theme_changed", null, "primaryColor");
    const b = auditEvent("admin", "settings.theme_changed", null, "primaryColor");
    expect(JOBS["audit.record"].schema.parse(a)).toEqual(a);
    expect(a.eventId).not.toBe(b.eventId);
    expect(Date.now() - Date.parse(a.at)).toBeLessThan(5_000);
    expect(() => JOBS["audit.record"].schema.parse({ ...a, actor: "x".repeat(101) })).toThrow();
  });
});
