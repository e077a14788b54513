import { goToSection, HOME_SECTIONS, scrollToId, type HomeSection } from "./navigation";
import { navigate, prefetchPage } from "./site-router";
import { normalizePath, prerenderKeyFor } from "./url";

// The links of the public pages, wherever they are: most of a page is pre-rendered HTML that React
// never runs (only its islands do), so its links and jump buttons are followed here, by one listener
// on the document, the way the components themselves do it where they run (navigation.ts): a link to
// another public page swaps it in (site-router.ts), a jump to a home section scrolls there or opens
// the home page first, an in-page jump (#voordelen) scrolls to it. A click a component has handled,
// a modified click (new tab), a link elsewhere and the skip link (native: it moves focus into the
// main content) are left to the browser.

function linkOf(event: Event): HTMLAnchorElement | null {
  const target = event.target;
  const link = target instanceof Element ? target.closest("a[href]") : null;
  return link instanceof HTMLAnchorElement ? link : null;
}

function isHomeSection(id: string): id is HomeSection {
  return (HOME_SECTIONS as readonly string[]).includes(id);
}

function follow(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = linkOf(event);
  if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
  const url = new URL(link.href);
  if (url.origin !== window.location.origin || prerenderKeyFor(url.pathname) === null) return;
  const id = decodeURIComponent(url.hash.slice(1));
  const samePage = normalizePath(url.pathname) === normalizePath(window.location.pathname);
  if (samePage && id) {
    const target = document.getElementById(id);
    if (!target || target.tagName === "MAIN") return;
    event.preventDefault();
    scrollToId(id);
  } else if (isHomeSection(id) && normalizePath(url.pathname) === "/") {
    event.preventDefault();
    goToSection(id);
  } else {
    event.preventDefault();
    // A link to the page that is open replaces its history entry, as react-router's Link does.
    navigate(`${url.pathname}${url.search}`, { replace: samePage });
  }
}

function prefetch(event: Event): void {
  const link = linkOf(event);
  if (!link) return;
  const url = new URL(link.href);
  if (url.origin === window.location.origin) prefetchPage(url.pathname);
}

/** Follows the links of the public pages (once, on the document). */
export function followSiteLinks(): void {
  document.addEventListener("click", follow);
  // The page a link leads to, fetched while the pointer rests on it or it has focus.
  document.addEventListener("pointerover", prefetch, { passive: true });
  document.addEventListener("focusin", prefetch);
}
