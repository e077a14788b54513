import { useCallback, type MouseEvent } from "react";
import { useLocation, useNavigate } from "react-router-dom";

/** Delay before scrolling after navigating to another page (SPEC §2: about 100 ms). */
export const SCROLL_DELAY_MS = 100;

export type HomeSection = "diensten" | "calculator" | "aanvraag" | "contact";

/** Router state that asks the home page to scroll to a section once it is shown. */
export interface SectionState {
  section: HomeSection;
}

function scrollToId(id: string): void {
  document.getElementById(id)?.scrollIntoView({ behavior: "smooth", block: "start" });
}

/**
 * Scrolls to a section about 100 ms after another page navigated home. The home chunk may still be
 * loading then, so it keeps looking for the section for a few seconds; returns a cancel function.
 */
export function scrollToSectionSoon(id: string, maxWaitMs = 3000): () => void {
  const started = Date.now();
  let timer = window.setTimeout(function attempt() {
    if (document.getElementById(id)) scrollToId(id);
    else if (Date.now() - started < maxWaitMs) timer = window.setTimeout(attempt, 50);
  }, SCROLL_DELAY_MS);
  return () => window.clearTimeout(timer);
}

/**
 * Scrolling behaviours of the header and the call-to-action buttons. Every target is also a real link
 * (href="/#calculator"), so the site works without JavaScript; with it, clicks are intercepted.
 */
export function useSiteNavigation() {
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const goToSection = useCallback(
    (section: HomeSection) => {
      if (pathname === "/") {
        scrollToId(section);
        return;
      }
      const state: SectionState = { section };
      navigate("/", { state });
    },
    [navigate, pathname],
  );

  const goToAboutUs = useCallback(() => {
    navigate("/over-ons");
    window.setTimeout(() => window.scrollTo({ top: 0, behavior: "smooth" }), SCROLL_DELAY_MS);
  }, [navigate]);

  return { goToSection, goToAboutUs, scrollToId };
}

/** Wraps a handler for a link so modified clicks (new tab, ...) keep their default behaviour. */
export function onPlainClick(handler: () => void) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    handler();
  };
}
