import { useEffect, useRef } from "react";
import { useCompanySettings, useThemeSettings } from "../api/public";
import { useConsent } from "../lib/consent-store";
import { focusPageTitleSoon, scrollToSectionSoon, type SectionState } from "../lib/navigation";
import { captureLandingClicks } from "../lib/marketing";
import { loadPixels, trackPixelPageView, unloadPixels } from "../lib/pixels";
import { applyTheme } from "../lib/theme";
import { startTracking } from "../lib/tracking";
import { useSiteLocation } from "../lib/site-location";
import { canonicalUrl, isPublicPath, normalizePath } from "../lib/url";
import { metaFor } from "../page-meta";

const ADMIN_TITLES: Record<string, string> = {
  "/admin-login": "Inloggen | Beheer",
  "/admin": "Dashboard | Beheer",
  "/email-compose": "E-mail opstellen | Beheer",
};

/**
 * Browser-only side effects of the site (the public pages and the admin app): theme, tracking, pixels,
 * scroll position and head tags.
 */
export function SiteEffects() {
  const { pathname, state } = useSiteLocation();
  const section = (state as Partial<SectionState> | null)?.section;
  const theme = useThemeSettings();
  const settings = useCompanySettings();
  const companyName = settings?.companyName;
  const { choice } = useConsent();
  const marketingAllowed = choice?.marketing === true;

  useEffect(() => {
    if (theme) applyTheme(theme);
  }, [theme]);

  useEffect(() => startTracking(), []);
  useEffect(() => captureLandingClicks(), []);

  // Content pages open at the top, with focus on their title; a section link from another page
  // scrolls to its section (and focuses its heading) instead. The first render keeps the browser's
  // own position and focus (a /#aanvraag link or a reload).
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    if (section) return scrollToSectionSoon(section);
    window.scrollTo({ top: 0, behavior: "instant" });
    if (!(normalizePath(pathname) in ADMIN_TITLES)) return focusPageTitleSoon();
  }, [pathname, section]);

  // The admin pages are no public page and no 404: their own title, nothing for crawlers. Set on
  // arriving only: the dashboard then names its tab in the title, and the company settings loading
  // later (they rerun the public pages' effect below) must not put "Dashboard" back over it.
  useEffect(() => {
    const adminTitle = ADMIN_TITLES[normalizePath(pathname)];
    if (adminTitle) document.title = adminTitle;
  }, [pathname]);

  useEffect(() => {
    if (normalizePath(pathname) in ADMIN_TITLES) return;
    const meta = metaFor(pathname, companyName);
    document.title = meta.title;
    document.querySelector('meta[name="description"]')?.setAttribute("content", meta.description);
    document.querySelector('meta[property="og:title"]')?.setAttribute("content", meta.title);
    const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    if (canonical && isPublicPath(pathname)) {
      const current = canonical.getAttribute("href") ?? "";
      // Absolute, as search engines want it: the SITE_URL origin of the build, else this page's own
      // (which is what the pre-rendered relative link resolves to anyway).
      const origin = /^https?:\/\//.test(current) ? new URL(current).origin : window.location.origin;
      canonical.setAttribute("href", canonicalUrl(origin, pathname));
    }
  }, [pathname, companyName]);

  // Pixels: only after marketing consent, only for configured ids, one page view per route change;
  // gone as soon as the consent is (vendor code that already ran ends with a reload of the page).
  useEffect(() => {
    if (marketingAllowed) {
      if (settings) loadPixels(settings);
    } else if (unloadPixels()) window.location.reload();
  }, [marketingAllowed, settings]);
  const firstPath = useRef(pathname);
  useEffect(() => {
    if (pathname === firstPath.current) return;
    firstPath.current = pathname;
    trackPixelPageView();
  }, [pathname]);

  return null;
}
