import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { SiteEffects } from "../components/SiteEffects";
import { prerenderKeyFor, type PublicPath } from "../lib/url";
import { PAGES } from "../routes";
import { PublicSite } from "./PublicSite";

/**
 * Renders a public page in the browser, for `npm run dev` (whose index.html is not pre-rendered):
 * one React tree with the islands inside, without the site router (links load their pages).
 */
export async function renderPage(container: HTMLElement): Promise<void> {
  const key = (prerenderKeyFor(window.location.pathname) ?? "404") as PublicPath;
  await PAGES[key].preload();
  createRoot(container).render(
    <StrictMode>
      <SiteEffects />
      <PublicSite page={key} />
    </StrictMode>,
  );
}
