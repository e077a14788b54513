import { describe, expect, it } from "vitest";
import type { AuditAction } from "@lease/contracts";
import { auditDetailText, leadTargetOf } from "./audit-entry";

const entry = (action: AuditAction, detail: string | null, target: string | null = null) => ({
  action,
  detail,
  target,
});
const LEAD = "0b0e6a53-3c1e-4c57-9d55-6f2f0a1b2c3d";

describe("Logboek in words", () => {
  it("names statuses by their badges instead of codes", () => {
    expect(auditDetailText(entry("lead.status_changed", "nieuw → offerte, maandbedrag € 489,00"))).toBe(
      "van Nieuw naar Offerte, maandbedrag € 489,00",
    );
    expect(
      auditDetailText(entry("lead.stage_moved_back", "getekend → offerte, vervallen: commissie € 1.200,00")),
    ).toBe("van Getekend naar Offerte, vervallen: commissie € 1.200,00");
    expect(auditDetailText(entry("lead.status_changed", "bekeken → gereageerd"))).toBe(
      "van Bekeken naar Gereageerd",
    );
  });

  it("says an erasure's internal counts in plain words, sign-ins and settings fields too", () => {
    expect(
      auditDetailText(entry("privacy.erased", "Offerteaanvragen: 2, wachtrijregels: 3, wachtrijtaken: 1")),
    ).toBe("Offerteaanvragen: 2, interne berichten nog te verwerken: 3, geplande verwerkingstaken: 1");
    expect(auditDetailText(entry("login.success", "totp"))).toBe("met wachtwoord en code");
    expect(auditDetailText(entry("settings.company_changed", "companyName, kvkNumber"))).toBe(
      "bedrijfsnaam, KvK-nummer",
    );
    expect(auditDetailText(entry("lead.follow_up_changed", "2026-11-28"))).toBe("28-11-2026");
  });

  it("leaves out an e-mail's id when the row links to its lead", () => {
    expect(auditDetailText(entry("email.sent", `e-mail ${LEAD}`, LEAD))).toBeNull();
  });

  it("knows which targets are lease requests, and that a deleted one is gone", () => {
    expect(leadTargetOf(entry("lead.note_added", null, LEAD))).toEqual({ id: LEAD, deleted: false });
    expect(leadTargetOf(entry("lead.deleted", null, LEAD))).toEqual({ id: LEAD, deleted: true });
    expect(leadTargetOf(entry("email.sent", `e-mail ${LEAD}`, LEAD))).toEqual({ id: LEAD, deleted: false });
    expect(leadTargetOf(entry("email.sent", null, LEAD))).toBeNull();
    expect(leadTargetOf(entry("admin.disabled", null, "piet"))).toBeNull();
    expect(leadTargetOf(entry("lead.exported", "2 aanvragen", null))).toBeNull();
  });
});
