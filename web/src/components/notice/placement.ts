// Where the one visible notice goes: a corner of the window where it covers no button, link or
// field the person may want to use next (the request detail's Bellen and Verwijderen, a banner's
// buttons). Without a free corner, the one that covers the fewest.

export type Placement = "bottom-right" | "top-right" | "bottom-left" | "top-left" | "bottom" | "top";

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const MARGIN = 16;
/** Tailwind's sm breakpoint: below it the notice spans the width of the window. */
const WIDE = 640;

const CONTROLS =
  'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="tab"], [role="button"]';

/** The box a notice of this size takes at a placement, in a window of this size. */
export function boxAt(
  placement: Placement,
  size: { width: number; height: number },
  win: { width: number; height: number },
): Rect {
  const top = placement.startsWith("top") ? MARGIN : win.height - MARGIN - size.height;
  const left = placement.endsWith("left")
    ? MARGIN
    : placement.endsWith("right")
      ? win.width - MARGIN - size.width
      : MARGIN;
  const width = placement === "top" || placement === "bottom" ? win.width - 2 * MARGIN : size.width;
  return { left, top, right: left + width, bottom: top + size.height };
}

const overlaps = (a: Rect, b: Rect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** The first placement that covers none of the controls, else the one that covers the fewest. */
export function choosePlacement(
  candidates: readonly Placement[],
  boxOf: (placement: Placement) => Rect,
  controls: readonly Rect[],
): Placement {
  let best = candidates[0]!;
  let fewest = Infinity;
  for (const placement of candidates) {
    const box = boxOf(placement);
    const covered = controls.filter((control) => overlaps(box, control)).length;
    if (covered === 0) return placement;
    if (covered < fewest) [best, fewest] = [placement, covered];
  }
  return best;
}

/** Measures the page now: the notice element's size and every visible control outside it. */
export function placementFor(notice: HTMLElement): Placement {
  const win = { width: window.innerWidth, height: window.innerHeight };
  const size = { width: notice.offsetWidth, height: notice.offsetHeight };
  const controls: Rect[] = [];
  for (const element of document.querySelectorAll<HTMLElement>(CONTROLS)) {
    if (notice.contains(element)) continue;
    const rect = element.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0 || rect.bottom < 0 || rect.top > win.height) continue;
    controls.push(rect);
  }
  const candidates: Placement[] =
    win.width >= WIDE ? ["bottom-right", "top-right", "bottom-left", "top-left"] : ["bottom", "top"];
  return choosePlacement(candidates, (placement) => boxAt(placement, size, win), controls);
}

/** The viewport classes of each placement (fixed, with the window margin). */
export const PLACEMENT_CLASSES: Record<Placement, string> = {
  "bottom-right": "bottom-0 right-0 justify-end",
  "top-right": "top-0 right-0 justify-end",
  "bottom-left": "bottom-0 left-0 justify-start",
  "top-left": "top-0 left-0 justify-start",
  bottom: "bottom-0 inset-x-0 justify-center",
  top: "top-0 inset-x-0 justify-center",
};
