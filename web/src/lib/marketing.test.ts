import { describe, expect, it } from "vitest";
import { FormClickIds } from "@lease/contracts";
import { clickIdsFrom, formMarketing, metaBrowserId } from "./marketing";

describe("click ids of the landing URL", () => {
  it("takes each platform's id with the landing time, and nothing else of the query", () => {
    const ids = clickIdsFrom(
      "?utm_source=facebook&fbclid=IwAR2x-_y.z&ttclid=E.C.P.abc&ScCid=3f1c2a4e-9b7d&gclid=Cj0&email=a@b.nl",
      1_764_000_000_000,
    );
    expect(ids).toEqual({
      fbclid: "IwAR2x-_y.z",
      ttclid: "E.C.P.abc",
      ScCid: "3f1c2a4e-9b7d",
      gclid: "Cj0",
      clickedAt: 1_764_000_000_000,
    });
    // What the page sends is what the server accepts.
    expect(FormClickIds.safeParse(ids).success).toBe(true);
  });

  it("has none without a click id, and drops a value the server would refuse", () => {
    expect(clickIdsFrom("?utm_source=google", 1)).toBeNull();
    expect(clickIdsFrom("?fbclid=<script>", 1)).toBeNull();
    // A leading "-" (a spreadsheet formula) and, for Google's ids, anything Google does not issue.
    for (const query of ["?gclid=-2+3", "?gclid=-Cj0", "?wbraid=a.b", "?gbraid=a~b", "?fbclid=-IwAR"])
      expect(clickIdsFrom(query, 1), query).toBeNull();
    const kept = clickIdsFrom("?gclid=-bad&wbraid=Cj0-ok_1", 1_764_000_000_000);
    expect(kept).toEqual({ wbraid: "Cj0-ok_1", clickedAt: 1_764_000_000_000 });
    expect(FormClickIds.safeParse(kept).success).toBe(true);
    expect(clickIdsFrom("", 1)).toBeNull();
  });
});

describe("the quote form's marketing fields", () => {
  it("say no consent, and carry no id, without marketing consent", () => {
    expect(formMarketing(false)).toEqual({ marketingConsent: false });
  });
});

describe("Meta's browser id (the _fbp cookie)", () => {
  it("is read from the cookies when it has the pixel's shape, else left out", () => {
    expect(metaBrowserId("a=1; _fbp=fb.1.1764000000000.1098765432; b=2")).toBe(
      "fb.1.1764000000000.1098765432",
    );
    expect(metaBrowserId("_fbp=fb.2.1764000000000.42")).toBe("fb.2.1764000000000.42");
    expect(metaBrowserId("x_fbp=fb.1.1764000000000.1")).toBeUndefined();
    expect(metaBrowserId("_fbp=<script>")).toBeUndefined();
    expect(metaBrowserId(`_fbp=fb.1.1764000000000.${"9".repeat(40)}`)).toBeUndefined();
    expect(metaBrowserId("")).toBeUndefined();
  });
});
