import type { MouseEvent } from "react";
import { navigate } from "./site-router";
import { normalizePath } from "./url";

/** Delay before scrolling after navigating to another page (about 100 ms). */
export const SCROLL_DELAY_MS = 100;

export const HOME_SECTIONS = ["diensten", "calculator", "aanvraag", "contact"] as const;
export type HomeSection = (typeof HOME_SECTIONS)[number];

/** Router state that asks the home page to scroll to a section once it is shown. */
export interface SectionState {
  section: HomeSection;
}

/**
 * Moves keyboard focus to an element without scrolling to it (a smooth scroll may be under way). A
 * heading is not focusable by itself: tabindex -1 makes it a focus target that Tab never stops at,
 * so the next Tab goes on from there, into the section.
 */
function focusWithoutScroll(target: HTMLElement): void {
  if (!target.hasAttribute("tabindex") && target.tabIndex < 0) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: true });
}

/**
 * Scrolls to a section and moves focus to its heading (the one that names it, else its first
 * heading), so that a keyboard or screen-reader user goes on where the page now shows, not at the
 * link they left behind (or at the menu button, when the phone menu closed).
 */
export function scrollToId(id: string): void {
  const section = document.getElementById(id);
  if (!section) return;
  section.scrollIntoView({ behavior: "smooth", block: "start" });
  const named = section.getAttribute("aria-labelledby");
  const heading =
    (named ? document.getElementById(named) : null) ?? section.querySelector<HTMLElement>("h1, h2, h3");
  focusWithoutScroll(heading ?? section);
}

/**
 * Runs `act` on what `find` returns once it is there, about 100 ms after a navigation: the page's
 * chunk may still be loading then, so it keeps looking for a few seconds; returns a cancel function.
 */
function whenShown<T>(find: () => T | null, act: (found: T) => void, maxWaitMs = 3000): () => void {
  const started = Date.now();
  let timer = window.setTimeout(function attempt() {
    const found = find();
    if (found) act(found);
    else if (Date.now() - started < maxWaitMs) timer = window.setTimeout(attempt, 50);
  }, SCROLL_DELAY_MS);
  return () => window.clearTimeout(timer);
}

/** A home page section: scrolled to on the home page, else the home page opens and then scrolls. */
export function goToSection(section: HomeSection): void {
  if (normalizePath(window.location.pathname) === "/") {
    scrollToId(section);
    return;
  }
  const state: SectionState = { section };
  navigate("/", { state });
}

export function goToAboutUs(): void {
  navigate("/over-ons");
  window.setTimeout(() => window.scrollTo({ top: 0, behavior: "smooth" }), SCROLL_DELAY_MS);
}

/**
 * Focuses the page's title once another page has opened in its place: the link that was followed
 * (in the header or the footer) stays where it was, and the next Tab should go into the new page,
 * as after a page load.
 */
export function focusPageTitleSoon(): () => void {
  return whenShown(() => document.querySelector<HTMLElement>("main h1"), focusWithoutScroll);
}

/** Scrolls to a section (and focuses its heading) about 100 ms after another page navigated home. */
export function scrollToSectionSoon(id: string): () => void {
  return whenShown(
    () => document.getElementById(id),
    () => scrollToId(id),
  );
}

/**
 * Scrolling behaviours of the header and the call-to-action buttons. Every target is also a real link
 * (href="/#calculator"), so the site works without JavaScript; with it, clicks are intercepted: by the
 * component where it is an island, else by the page's link handling (site-links.ts), which does the same.
 */
export function useSiteNavigation() {
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
