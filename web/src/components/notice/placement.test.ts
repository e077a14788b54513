import { describe, expect, it } from "vitest";
import { boxAt, choosePlacement, type Placement } from "./placement";

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
});
