import { useEffect, useRef, type KeyboardEvent, type RefObject } from "react";

/**
 * For a part of a page that opens in place (a confirmation, an edit form): focus moves to `into`
 * when it opens and back to `back` (the button that opened it) when it closes, unless focus has
 * gone somewhere else meanwhile; `back` may be gone (the thing was deleted), then focus stays.
 */
export function useReturnFocus(
  open: boolean,
  into: RefObject<HTMLElement | null>,
  back: RefObject<HTMLElement | null>,
): void {
  const wasOpen = useRef(open);
  useEffect(() => {
    if (open && !wasOpen.current) into.current?.focus();
    if (!open && wasOpen.current) {
      const active = document.activeElement;
      // Only when focus was lost with the closed part (now on the body), never taken from elsewhere.
      if (!active || active === document.body) back.current?.focus();
    }
    wasOpen.current = open;
  }, [open, into, back]);
}

/** onKeyDown for such a part: Escape closes it, as it would a dialog. */
export function closeOnEscape(close: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation();
    close();
  };
}
