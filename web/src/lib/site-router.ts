import { prerenderKeyFor, normalizePath } from "./url";

// Navigation between the public pages without a page load. Every public page is pre-rendered and only
// its islands (src/islands/) run in React, so a page's content is not in the scripts: going to another
// page fetches that page's pre-rendered document, puts its <main> in place of this one (its islands
// are hydrated, the old ones unmounted) and pushes the new address. Header, footer, cookie banner and
// the scripts' state (consent, click ids, tracking, pixels) stay as they are, as they did under
// react-router. Anything that goes wrong loads the page the ordinary way. Admin pages are another
// app (app.html): the browser loads them.

export interface PageSwap {
  /** Before the old content goes: unmount what runs in it. */
  leave(main: HTMLElement): void;
  /** After the new content is in: hydrate its islands. */
  enter(main: HTMLElement): void;
}

export interface NavigateOptions {
  /** History state (read back by useSiteLocation), e.g. the home section to scroll to. */
  state?: unknown;
  replace?: boolean;
}

let router: { main: HTMLElement; swap: PageSwap } | null = null;
/** The <main> content of each page by its pre-render key: the public paths and "404", no more. */
const pages = new Map<string, string>();
const fetching = new Map<string, Promise<string | null>>();
let shown: string | null = null;
let latest = 0;

/** Starts the router on a pre-rendered page: `main` is its <main>, whose content it swaps. */
export function startSiteRouter(main: HTMLElement, swap: PageSwap): void {
  router = { main, swap };
  shown = prerenderKeyFor(window.location.pathname);
  // Kept as pre-rendered, before any island hydrates: what going back to this page shows again.
  if (shown !== null) pages.set(shown, main.innerHTML);
  // Registered before anything else listens to popstate, so that back and forward have swapped the
  // content (synchronously: every page that was shown is kept) before the effects see the new path.
  window.addEventListener("popstate", () => {
    void show(window.location.pathname).then((ok) => {
      if (!ok) window.location.reload();
    });
  });
}

/** Goes to a page of the site: swapped in place when it is a public page, loaded otherwise. */
export function navigate(to: string, options: NavigateOptions = {}): void {
  const url = new URL(to, window.location.href);
  if (!router || url.origin !== window.location.origin || prerenderKeyFor(url.pathname) === null) {
    window.location.assign(url.href);
    return;
  }
  void go(url, options);
}

/** Fetches a page's content ahead of a likely click (a link under the pointer or in focus). */
export function prefetchPage(pathname: string): void {
  const key = prerenderKeyFor(pathname);
  if (router && key !== null && !pages.has(key)) void content(key, pathname);
}

async function go(url: URL, { state = null, replace = false }: NavigateOptions): Promise<void> {
  const token = ++latest;
  const target = `${url.pathname}${url.search}${url.hash}`;
  // react-router's shape ({ usr, key }), which useSiteLocation reads for either app.
  const entry = { usr: state, key: Math.random().toString(36).slice(2, 10) };
  if (normalizePath(url.pathname) !== normalizePath(window.location.pathname)) {
    const ok = await show(url.pathname, token);
    if (token !== latest) return;
    if (!ok) {
      window.location.assign(url.href);
      return;
    }
  }
  if (replace) window.history.replaceState(entry, "", target);
  else window.history.pushState(entry, "", target);
}

/** Puts the page of `pathname` in place; false when its content could not be had. */
async function show(pathname: string, token = ++latest): Promise<boolean> {
  const key = prerenderKeyFor(pathname);
  if (!router || key === null) return false;
  if (key === shown) return true;
  const html = pages.get(key) ?? (await content(key, pathname));
  if (html === null) return false;
  if (token !== latest) return true;
  const { main, swap } = router;
  swap.leave(main);
  main.innerHTML = html;
  shown = key;
  const root = document.getElementById("root");
  if (root) root.dataset.prerendered = key;
  swap.enter(main);
  return true;
}

/** The <main> content of a pre-rendered page, fetched once; null when it is not such a page. */
function content(key: string, pathname: string): Promise<string | null> {
  const pending = fetching.get(key);
  if (pending) return pending;
  const request = fetch(pathname, { headers: { Accept: "text/html" }, credentials: "same-origin" })
    .then(async (response) => {
      if (!response.ok && response.status !== 404) return null;
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      if (page.getElementById("root")?.dataset.prerendered !== key) return null;
      const html = page.getElementById("inhoud")?.innerHTML ?? null;
      if (html !== null) pages.set(key, html);
      return html;
    })
    .catch(() => null)
    .finally(() => fetching.delete(key));
  fetching.set(key, request);
  return request;
}
