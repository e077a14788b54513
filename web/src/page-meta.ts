import { DEFAULT_COMPANY_NAME } from "./lib/constants";
import { NOT_FOUND_KEY, normalizePath, type PublicPath } from "./lib/url";

export interface PageMeta {
  title: string;
  description: string;
}

/**
 * Title (given the company name, as the header shows it) and meta description of every
 * pre-rendered page. The build renders them with the default name, like the header; the browser
 * puts in the name from the company settings once they are loaded (SiteEffects).
 */
const PAGE_META: Record<
  PublicPath | typeof NOT_FOUND_KEY,
  { title: (site: string) => string; description: string }
> = {
  "/": {
    title: (site) => `${site} | Financiële & Operationele Lease, ook met BKR`,
    description:
      "Zakelijk een auto leasen? Bereken direct uw maandlasten en vraag vrijblijvend een offerte aan. Financiële en operationele lease, ook met een BKR-registratie. Reactie binnen 24 uur.",
  },
  "/zakelijke-lease": {
    title: (site) => `Zakelijke Lease voor ondernemers en bedrijven | ${site}`,
    description:
      "Zakelijke autolease voor starters, zzp'ers, MKB en grote bedrijven. Financiële of operationele lease met vaste maandlasten en persoonlijk advies.",
  },
  "/financiele-lease": {
    title: (site) => `Financiële Lease: eigendom, 21% btw terug en aftrek | ${site}`,
    description:
      "Met financiële lease wordt de auto uw eigendom, vraagt u 21% btw terug en trekt u rente en afschrijving af. Ook mogelijk met een BKR-registratie.",
  },
  "/operationele-lease": {
    title: (site) => `Operationele Lease: all-inclusive rijden | ${site}`,
    description:
      "Operationele lease: één vast bedrag per maand voor auto, onderhoud, verzekering, banden en pechhulp. Lees voor wie het geschikt is en voor wie niet.",
  },
  "/fleet-management": {
    title: (site) => `Fleet Management voor wagenparken vanaf 25 voertuigen | ${site}`,
    description:
      "Professioneel wagenparkbeheer: 15-25% kostenbesparing, minder schades en hulp bij de CO2-rapportageplicht die sinds 1 juli 2024 geldt.",
  },
  "/over-ons": {
    title: (site) => `Over Ons: 15+ jaar ervaring in zakelijke lease | ${site}`,
    description:
      "Sinds 2009 helpen wij ondernemers aan de juiste leaseauto. Lees onze missie, kernwaarden en geschiedenis, en waarom meer dan 2.000 klanten voor ons kozen.",
  },
  "/voorwaarden": {
    title: (site) => `Algemene Voorwaarden | ${site}`,
    description:
      "De algemene voorwaarden voor onze zakelijke leasebemiddeling, offertes en leaseovereenkomsten.",
  },
  "/privacy-beleid": {
    title: (site) => `Privacy Beleid | ${site}`,
    description:
      "Hoe wij omgaan met uw persoonsgegevens: welke gegevens, waarom, hoe lang en welke rechten u heeft.",
  },
  "/cookie-beleid": {
    title: (site) => `Cookie Beleid | ${site}`,
    description:
      "Welke cookies onze website gebruikt, waarvoor en hoe lang, en hoe u uw cookievoorkeuren wijzigt.",
  },
  [NOT_FOUND_KEY]: {
    title: (site) => `404 Page Not Found | ${site}`,
    description: "Deze pagina bestaat niet (meer). Ga terug naar de homepage.",
  },
};

/** A page's title and description by its key; the site name is the company's, when it has one. */
export function pageMeta(key: PublicPath | typeof NOT_FOUND_KEY, companyName?: string | null): PageMeta {
  const meta = PAGE_META[key];
  return { title: meta.title(companyName?.trim() || DEFAULT_COMPANY_NAME), description: meta.description };
}

export function metaFor(pathname: string, companyName?: string | null): PageMeta {
  const key = normalizePath(pathname) as PublicPath;
  return pageMeta(key in PAGE_META ? key : NOT_FOUND_KEY, companyName);
}
