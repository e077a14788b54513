// Where the one visible notice goes: a corner of the window where it covers no button, link or
// field the person may want to use next (the request detail's Bellen and Verwijderen, a banner's
// buttons) nor a page's or panel's title. Without a free corner, the one that covers the fewest,
// and never the control that has focus (the field being typed in) while another corner spares it.

export type Placement = "bottom-right" | "top-right" | "bottom-left" | "top-left" | "bottom" | "top";

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** What a notice should not cover, and how much covering it counts (the focused control: most). */
export interface Obstacle extends Rect {
  weight?: number;
}

/** The focused control outweighs any number of other controls a window can show. */
const FOCUSED_WEIGHT = 1000;
/**
 * The controls of an element marked `data-notice-keep-clear` (a request's action row: E-mail
 * versturen, Verwijderen) count twice: where a notice must cover something, it covers a title and
 * a link before them.
 */
export const KEEP_CLEAR_WEIGHT = 2;

const MARGIN = 16;
/** Tailwind's sm breakpoint: below it the notice spans the width of the window. */
const WIDE = 640;

const CONTROLS =
  'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="tab"], [role="button"], h1, h2';

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

/**
 * The first placement that covers none of the obstacles, else the one that covers the least
 * (each counts its weight, 1 unless said).
 */
export function choosePlacement(
  candidates: readonly Placement[],
  boxOf: (placement: Placement) => Rect,
  obstacles: readonly Obstacle[],
): Placement {
  let best = candidates[0]!;
  let fewest = Infinity;
  for (const placement of candidates) {
    const box = boxOf(placement);
    const covered = obstacles
      .filter((obstacle) => overlaps(box, obstacle))
      .reduce((sum, obstacle) => sum + (obstacle.weight ?? 1), 0);
    if (covered === 0) return placement;
    if (covered < fewest) [best, fewest] = [placement, covered];
  }
  return best;
}

/**
 * The control last focused: a field that is disabled while its form is sent loses focus, yet it
 * is still the one the person is using when the answer's notice comes.
 */
let lastFocused: Element | null = null;
export function rememberFocus(event: FocusEvent): void {
  if (event.target instanceof Element && event.target !== document.body) lastFocused = event.target;
}

/** Measures the page now: the notice element's size and every visible control outside it. */
export function placementFor(notice: HTMLElement): Placement {
  const win = { width: window.innerWidth, height: window.innerHeight };
  const size = { width: notice.offsetWidth, height: notice.offsetHeight };
  const controls: Obstacle[] = [];
  const active = document.activeElement;
  const focused = active && active !== document.body ? active : lastFocused;
  for (const element of document.querySelectorAll<HTMLElement>(CONTROLS)) {
    if (notice.contains(element)) continue;
    const rect = element.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0 || rect.bottom < 0 || rect.top > win.height) continue;
    const { left, top, right, bottom } = rect;
    const weight =
      element === focused
        ? FOCUSED_WEIGHT
        : element.closest("[data-notice-keep-clear]")
          ? KEEP_CLEAR_WEIGHT
          : 1;
    controls.push({ left, top, right, bottom, weight });
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
