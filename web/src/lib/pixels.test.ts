import { describe, expect, it } from "vitest";
import { isValidMetaPixelId, isValidSnapchatPixelId, isValidTiktokPixelId, validPixelIds } from "./pixels";

describe("pixel id validation", () => {
  it("accepts Meta ids of 10 to 20 digits only", () => {
    expect(isValidMetaPixelId("1234567890")).toBe(true);
    expect(isValidMetaPixelId("12345678901234567890")).toBe(true);
    expect(isValidMetaPixelId("123456789")).toBe(false);
    expect(isValidMetaPixelId("123456789012345678901")).toBe(false);
    expect(isValidMetaPixelId("12345678901');alert(1)//")).toBe(false);
  });

  it("accepts Snapchat UUIDs only", () => {
    expect(isValidSnapchatPixelId("3f1c2a4e-9b7d-4c1e-8a2f-0d5e6b7c8a9f")).toBe(true);
    expect(isValidSnapchatPixelId("3f1c2a4e9b7d4c1e8a2f0d5e6b7c8a9f")).toBe(false);
    expect(isValidSnapchatPixelId("<script>")).toBe(false);
  });

  it("accepts TikTok ids of 15 to 25 capitals and digits", () => {
    expect(isValidTiktokPixelId("C4ABCDEFGHIJ12345")).toBe(true);
    expect(isValidTiktokPixelId("SHORT123")).toBe(false);
    expect(isValidTiktokPixelId("c4abcdefghij12345")).toBe(false);
  });

  it("keeps only the valid, non-empty ids (TikTok case-insensitively)", () => {
    expect(
      validPixelIds({
        facebookPixelId: " 1234567890 ",
        snapchatPixelId: "",
        tiktokPixelId: "c4abcdefghij12345",
      }),
    ).toEqual({ meta: "1234567890", tiktok: "C4ABCDEFGHIJ12345" });
    expect(
      validPixelIds({ facebookPixelId: null, snapchatPixelId: "nope", tiktokPixelId: undefined }),
    ).toEqual({});
  });
});
