import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { loadPublicSettings } from "./api/public";
import { SiteEffects } from "./components/SiteEffects";
import { watchEarlyInput } from "./lib/early-input";
import { followSiteLinks } from "./lib/site-links";
import { startSiteRouter } from "./lib/site-router";
import { prerenderKeyFor } from "./lib/url";
import { hydrateIslands, unmountIslands } from "./site/hydrate";
import "./styles.css";

// The public pages' script. A page arrives pre-rendered (scripts/build.mjs); this hydrates only its
// islands (site/Island.tsx), follows its links without page loads (lib/site-links.ts,
// lib/site-router.ts) and runs the site's effects (theme, tracking, pixels, head tags).

const container = document.getElementById("root")!;
const main = document.getElementById("inhoud");

if (main && container.dataset.prerendered) {
  // Before anything else: fields typed into (or autofilled) while the scripts loaded keep their text.
  watchEarlyInput(container);
  loadPublicSettings();
  startSiteRouter(main, {
    leave: unmountIslands,
    enter: (content) => void hydrateIslands(content),
  });
  followSiteLinks();
  // The effects render nothing: a root of their own, outside the page.
  createRoot(document.createElement("div")).render(
    <StrictMode>
      <SiteEffects />
    </StrictMode>,
  );
  void hydrateIslands(container);
} else if (import.meta.env.DEV) {
  // The development server answers every path with the bare index.html: an admin path gets the
  // admin app, a public one the whole page rendered in the browser. (Left out of the build.)
  if (prerenderKeyFor(window.location.pathname) === null) void import("./entry-app");
  else void import("./site/render-page").then(({ renderPage }) => renderPage(container));
}
