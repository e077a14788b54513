import { describe, expect, it } from "vitest";
import { MATCH_KEYS } from "@lease/contracts";
import { matchKeysText } from "./match-keys";

describe("the match keys an event carried, in Dutch", () => {
  it("reads as the marketer knows them, in the event's order", () => {
    expect(matchKeysText(["email", "phone", "click_id", "fbp", "ip"])).toBe(
      "e-mail, telefoon, klik-id, fbp, IP",
    );
    expect(matchKeysText([])).toBe("");
  });
  it("has a Dutch name for every key", () => {
    for (const key of MATCH_KEYS) expect(matchKeysText([key])).toMatch(/^[a-zA-Z-]+$/);
  });
});
