import { describe, expect, it } from "vitest";
import type { ConversionDelivery } from "@lease/contracts";
import { AWAIT_OUTCOME_MS, AWAITING_POLL_MS, WAITING_POLL_MS, conversionsPollMs } from "./conversions";

const at = "2026-03-02T10:00:00.000Z";
const delivery = (patch: Partial<ConversionDelivery>): ConversionDelivery => ({
  platform: "meta",
  event: "lead",
  status: "sent",
  at,
  matchKeys: [],
  ...patch,
});

describe("when the panel asks for a lead's conversions again", () => {
  it("keeps asking while a platform waits, however long", () => {
    const waiting = [delivery({}), delivery({ event: "getekend", status: "waiting" })];
    expect(conversionsPollMs(waiting, "getekend", 10 * AWAIT_OUTCOME_MS)).toBe(WAITING_POLL_MS);
  });

  it("asks for a contract just signed until a platform reported on it", () => {
    const leadOnly = [delivery({})];
    expect(conversionsPollMs(leadOnly, "getekend", 0)).toBe(AWAITING_POLL_MS);
    expect(conversionsPollMs(leadOnly, "offerte", 1_000)).toBe(AWAITING_POLL_MS);
    expect(conversionsPollMs([...leadOnly, delivery({ event: "getekend" })], "getekend", 0)).toBe(false);
    const refused = delivery({ event: "getekend", status: "failed", error: "Meta weigerde het event (400)" });
    expect(conversionsPollMs([...leadOnly, refused], "getekend", 0)).toBe(false);
  });

  it("asks for a new lead's own event, and stops after a while when none comes (no platform on)", () => {
    expect(conversionsPollMs([], "nieuw", 0)).toBe(AWAITING_POLL_MS);
    expect(conversionsPollMs([], "gereageerd", AWAIT_OUTCOME_MS - 1)).toBe(AWAITING_POLL_MS);
    expect(conversionsPollMs([], "getekend", AWAIT_OUTCOME_MS)).toBe(false);
    expect(conversionsPollMs([delivery({})], "verloren", 0)).toBe(false);
  });
});
