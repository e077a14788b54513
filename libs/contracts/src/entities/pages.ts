// The site's pages, read by the web app (routes, pre-rendering) and by visit tracking (which records
// only these under their own name), so the two can never disagree on what the site has.

/** The public pages, each pre-rendered. */
export const PUBLIC_PAGE_PATHS = [
  "/",
  "/zakelijke-lease",
  "/financiele-lease",
  "/operationele-lease",
  "/fleet-management",
  "/over-ons",
  "/voorwaarden",
  "/privacy-beleid",
  "/cookie-beleid",
] as const;
export type PublicPagePath = (typeof PUBLIC_PAGE_PATHS)[number];

/** Client-only admin screens (never pre-rendered). */
export const ADMIN_PAGE_PATHS = ["/admin-login", "/admin", "/email-compose"] as const;

/**
 * What visit tracking records for a path the site does not have: one page for all of them, so a
 * made-up path never becomes a label of its own (in the live list, the top pages or the database).
 */
export const OTHER_PAGE = "(overig)";

/** Dutch labels the visitor dashboard shows; visit tracking records exactly these pages by name. */
export const KNOWN_PAGE_LABELS: Readonly<Record<string, string>> = {
  "/": "Home",
  "/zakelijke-lease": "Zakelijke Lease",
  "/financiele-lease": "Financiële Lease",
  "/operationele-lease": "Operationele Lease",
  "/fleet-management": "Fleet Management",
  "/over-ons": "Over Ons",
  "/voorwaarden": "Algemene Voorwaarden",
  "/privacy-beleid": "Privacy Beleid",
  "/cookie-beleid": "Cookie Beleid",
  "/admin-login": "Admin Login",
  "/admin": "Admin Dashboard",
  [OTHER_PAGE]: "Overige pagina's",
};

/** "/over-ons/" and "/over-ons/index.html" are the same page as "/over-ons". */
export function normalizePagePath(pathname: string): string {
  let path = pathname.replace(/\/index\.html$/, "/");
  if (path.length > 1) path = path.replace(/\/+$/, "");
  return path === "" ? "/" : path;
}

/** A page visit tracking records by name (a known page other than the "other" page itself). */
export function isTrackedPagePath(path: string): boolean {
  return path !== OTHER_PAGE && Object.hasOwn(KNOWN_PAGE_LABELS, path);
}
