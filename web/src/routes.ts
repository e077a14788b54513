import { lazyPage, type LazyPage } from "./lib/lazy-page";
import { NOT_FOUND_KEY, normalizePath, type PublicPath } from "./lib/url";

export interface PageMeta {
  title: string;
  description: string;
}

const SITE = "Zakelijk Auto Leasen";

/** Title and meta description of every pre-rendered page. */
export const PAGE_META: Record<PublicPath | typeof NOT_FOUND_KEY, PageMeta> = {
  "/": {
    title: `${SITE} | Financiële & Operationele Lease, ook met BKR`,
    description:
      "Zakelijk een auto leasen? Bereken direct uw maandlasten en vraag vrijblijvend een offerte aan. Financiële en operationele lease, ook met een BKR-registratie. Reactie binnen 24 uur.",
  },
  "/zakelijke-lease": {
    title: `Zakelijke Lease voor ondernemers en bedrijven | ${SITE}`,
    description:
      "Zakelijke autolease voor starters, zzp'ers, MKB en grote bedrijven. Financiële of operationele lease met vaste maandlasten en persoonlijk advies.",
  },
  "/financiele-lease": {
    title: `Financiële Lease: eigendom, 21% btw terug en aftrek | ${SITE}`,
    description:
      "Met financiële lease wordt de auto uw eigendom, vraagt u 21% btw terug en trekt u rente en afschrijving af. Ook mogelijk met een BKR-registratie.",
  },
  "/operationele-lease": {
    title: `Operationele Lease: all-inclusive rijden | ${SITE}`,
    description:
      "Operationele lease: één vast bedrag per maand voor auto, onderhoud, verzekering, banden en pechhulp. Lees voor wie het geschikt is en voor wie niet.",
  },
  "/fleet-management": {
    title: `Fleet Management voor wagenparken vanaf 25 voertuigen | ${SITE}`,
    description:
      "Professioneel wagenparkbeheer: 15-25% kostenbesparing, minder schades en hulp bij de CO2-rapportageplicht die sinds 1 juli 2024 geldt.",
  },
  "/over-ons": {
    title: `Over Ons: 15+ jaar ervaring in zakelijke lease | ${SITE}`,
    description:
      "Sinds 2009 helpen wij ondernemers aan de juiste leaseauto. Lees onze missie, kernwaarden en geschiedenis, en waarom meer dan 2.000 klanten voor ons kozen.",
  },
  "/voorwaarden": {
    title: `Algemene Voorwaarden | ${SITE}`,
    description:
      "De algemene voorwaarden voor onze zakelijke leasebemiddeling, offertes en leaseovereenkomsten.",
  },
  "/privacy-beleid": {
    title: `Privacy Beleid | ${SITE}`,
    description:
      "Hoe wij omgaan met uw persoonsgegevens: welke gegevens, waarom, hoe lang en welke rechten u heeft.",
  },
  "/cookie-beleid": {
    title: `Cookie Beleid | ${SITE}`,
    description:
      "Welke cookies onze website gebruikt, waarvoor en hoe lang, en hoe u uw cookievoorkeuren wijzigt.",
  },
  [NOT_FOUND_KEY]: {
    title: `404 Page Not Found | ${SITE}`,
    description: "Deze pagina bestaat niet (meer). Ga terug naar de homepage.",
  },
};

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

export function metaFor(pathname: string): PageMeta {
  return PAGE_META[normalizePath(pathname) as PublicPath] ?? PAGE_META[NOT_FOUND_KEY];
}
