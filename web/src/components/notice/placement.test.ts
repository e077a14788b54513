import { describe, expect, it } from "vitest";
import { KEEP_CLEAR_WEIGHT, boxAt, choosePlacement, type Placement } from "./placement";

const win = { width: 1280, height: 800 };
const size = { width: 384, height: 90 };
const box = (placement: Placement) => boxAt(placement, size, win);

describe("where a notice goes", () => {
  it("takes the bottom-right corner when nothing is there", () => {
    expect(choosePlacement(["bottom-right", "top-right"], box, [])).toBe("bottom-right");
  });

  it("moves off buttons it would cover, such as Bellen and Verwijderen at the bottom right", () => {
    const bellen = { left: 1000, top: 740, right: 1080, bottom: 780 };
    const verwijderen = { left: 1100, top: 740, right: 1220, bottom: 780 };
    expect(choosePlacement(["bottom-right", "top-right", "bottom-left"], box, [bellen, verwijderen])).toBe(
      "top-right",
    );
  });

  it("covers the fewest controls when no corner is free", () => {
    const everywhere = (["bottom-right", "top-right"] as const).map(box);
    const extra = { ...box("top-right") };
    expect(choosePlacement(["bottom-right", "top-right"], box, [...everywhere, extra])).toBe("bottom-right");
  });

  it("never covers the focused field while another corner spares it, even over more other controls", () => {
    // The field being typed in at the top right (Gebruikers' username), two buttons at the bottom.
    const typing = { ...box("top-right"), weight: 1000 };
    const buttons = [box("bottom-right"), box("bottom-right")];
    expect(choosePlacement(["top-right", "bottom-right"], box, [typing, ...buttons])).toBe("bottom-right");
  });

  it("covers a title and a link before a request's action row when no place is free (the detail on a phone)", () => {
    const phone = { width: 375, height: 740 };
    const wide = (placement: Placement) => boxAt(placement, { width: 343, height: 110 }, phone);
    // The detail's heading and its e-mail link under the top, E-mail versturen and Verwijderen at the bottom.
    const heading = { left: 33, top: 55, right: 160, bottom: 78 };
    const link = { left: 33, top: 110, right: 213, bottom: 130 };
    const row = [
      { left: 33, top: 700, right: 197, bottom: 740 },
      { left: 205, top: 700, right: 332, bottom: 740 },
    ];
    // Counted as any two controls, it is a tie, and the first candidate (the bottom) covers the row.
    expect(choosePlacement(["bottom", "top"], wide, [heading, link, ...row])).toBe("bottom");
    const kept = row.map((button) => ({ ...button, weight: KEEP_CLEAR_WEIGHT }));
    expect(choosePlacement(["bottom", "top"], wide, [heading, link, ...kept])).toBe("top");
  });
});
