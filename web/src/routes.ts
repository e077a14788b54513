import { lazyPage, type LazyPage } from "./lib/lazy-page";
import { NOT_FOUND_KEY, type PublicPath } from "./lib/url";

export { metaFor, pageMeta, type PageMeta } from "./page-meta";

/** Every pre-rendered page (the pre-renderer renders them; the browser runs only their islands). */
export const PAGES: Record<PublicPath | typeof NOT_FOUND_KEY, LazyPage> = {
  "/": lazyPage(() => import("./pages/home/HomePage")),
  "/zakelijke-lease": lazyPage(() => import("./pages/ZakelijkeLeasePage")),
  "/financiele-lease": lazyPage(() => import("./pages/FinancieleLeasePage")),
  "/operationele-lease": lazyPage(() => import("./pages/OperationeleLeasePage")),
  "/fleet-management": lazyPage(() => import("./pages/FleetManagementPage")),
  "/over-ons": lazyPage(() => import("./pages/OverOnsPage")),
  "/voorwaarden": lazyPage(() => import("./pages/legal/VoorwaardenPage")),
  "/privacy-beleid": lazyPage(() => import("./pages/legal/PrivacyBeleidPage")),
  "/cookie-beleid": lazyPage(() => import("./pages/legal/CookieBeleidPage")),
  [NOT_FOUND_KEY]: lazyPage(() => import("./pages/NotFoundPage")),
};
